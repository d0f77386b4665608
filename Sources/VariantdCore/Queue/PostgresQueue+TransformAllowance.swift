extension PostgresQueue {
    public func setAccount(_ account: Account) async throws(QueueError) {
        try await run(rerunnable: true) { connection throws(QueueError) in
            _ = try connection.query(
                """
                INSERT INTO variantd_accounts (name, transforms_per_month, overage) VALUES ($1, $2, $3)
                ON CONFLICT (name) DO UPDATE SET transforms_per_month = excluded.transforms_per_month,
                    overage = excluded.overage, updated_at = now()
                """, [account.name, String(account.transformsPerMonth), account.overage.rawValue])
        }
    }

    public func account(named name: String) async throws(QueueError) -> Account? {
        try await run(rerunnable: true) { connection throws(QueueError) in
            try Self.account(name, locking: false, connection)
        }
    }

    /// The account's row is locked for the transaction, so the counts of two daemons at the boundary are
    /// taken one after the other and the second sees the first's; an account without a row (unlimited)
    /// needs no lock, and a transform inserted twice at once is one row.
    public func count(_ transform: CountedTransform) async throws(QueueError) -> TransformCount {
        let key = [transform.account, transform.month, transform.bucket, transform.transform]
        return try await run(rerunnable: true) { connection throws(QueueError) in
            try Self.transaction(connection) { () throws(QueueError) -> TransformCount in
                let account = try Self.account(transform.account, locking: true, connection)
                let seen = try connection.query(
                    """
                    SELECT 1 FROM variantd_transforms
                    WHERE account = $1 AND month = $2 AND bucket = $3 AND transform = $4
                    """, key)
                guard seen.isEmpty else { return .already }
                if let account, account.overage == .refused {
                    let used =
                        try connection.query(
                            "SELECT count(*) FROM variantd_transforms WHERE account = $1 AND month = $2",
                            [transform.account, transform.month]
                        ).first?[0].flatMap { Int($0) } ?? 0
                    guard used < account.transformsPerMonth else { return .refused }
                }
                let inserted = try connection.query(
                    """
                    INSERT INTO variantd_transforms (account, month, bucket, transform) VALUES ($1, $2, $3, $4)
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, key)
                return inserted.isEmpty ? .already : .counted
            }
        }
    }

    public func usage(account: String, month: String?) async throws(QueueError) -> [TransformUsage] {
        try await run(rerunnable: true) { connection throws(QueueError) in
            try connection.query(
                """
                SELECT month, bucket, count(*) FROM variantd_transforms
                WHERE account = $1 AND ($2::text IS NULL OR month = $2) GROUP BY month, bucket
                ORDER BY month, bucket
                """, [account, month]
            ).map { row in
                TransformUsage(
                    month: row[0] ?? "", bucket: row[1] ?? "", transforms: row[2].flatMap { Int($0) } ?? 0)
            }
        }
    }

    private static func account(_ name: String, locking: Bool, _ connection: PostgresConnection)
        throws(QueueError) -> Account?
    {
        guard
            let row = try connection.query(
                "SELECT transforms_per_month, overage FROM variantd_accounts WHERE name = $1"
                    + (locking ? " FOR UPDATE" : ""), [name]
            ).first,
            let allowance = row[0].flatMap({ Int($0) }), let overage = row[1].flatMap(Account.Overage.init)
        else { return nil }
        return Account(name: name, transformsPerMonth: allowance, overage: overage)
    }
}
