extension SQLiteQueue {
    public func setAccount(_ account: Account) async throws(QueueError) {
        try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) in
                _ = try connection.query(
                    """
                    INSERT INTO variantd_accounts (name, transforms_per_month, overage, updated_at)
                    VALUES (?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET transforms_per_month = excluded.transforms_per_month,
                        overage = excluded.overage, updated_at = excluded.updated_at
                    """,
                    [
                        .text(account.name), .integer(Int64(account.transformsPerMonth)),
                        .text(account.overage.rawValue), .integer(Timestamp.now.milliseconds),
                    ])
            }
        }
    }

    public func account(named name: String) async throws(QueueError) -> Account? {
        try await database.run { connection throws(QueueError) in try Self.account(name, connection) }
    }

    /// The write lock `BEGIN IMMEDIATE` takes serialises every count, across processes too.
    public func count(_ transform: CountedTransform) async throws(QueueError) -> TransformCount {
        try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) -> TransformCount in
                let key: [SQLiteConnection.Parameter] = [
                    .text(transform.account), .text(transform.month), .text(transform.bucket),
                    .text(transform.transform),
                ]
                let seen = try connection.query(
                    """
                    SELECT 1 FROM variantd_transforms
                    WHERE account = ? AND month = ? AND bucket = ? AND transform = ?
                    """, key)
                guard seen.isEmpty else { return .already }
                if let account = try Self.account(transform.account, connection), account.overage == .refused
                {
                    let used =
                        try connection.query(
                            "SELECT count(*) FROM variantd_transforms WHERE account = ? AND month = ?",
                            [.text(transform.account), .text(transform.month)]
                        ).first?[0].flatMap { Int($0) } ?? 0
                    guard used < account.transformsPerMonth else { return .refused }
                }
                try connection.query(
                    "INSERT INTO variantd_transforms (account, month, bucket, transform) VALUES (?, ?, ?, ?)",
                    key)
                return .counted
            }
        }
    }

    public func usage(account: String, month: String?) async throws(QueueError) -> [TransformUsage] {
        try await database.run { connection throws(QueueError) in
            try connection.query(
                """
                SELECT month, bucket, count(*) FROM variantd_transforms
                WHERE account = ? AND (? IS NULL OR month = ?) GROUP BY month, bucket ORDER BY month, bucket
                """, [.text(account), month.map { .text($0) } ?? .null, month.map { .text($0) } ?? .null]
            ).map { row in
                TransformUsage(
                    month: row[0] ?? "", bucket: row[1] ?? "", transforms: row[2].flatMap { Int($0) } ?? 0)
            }
        }
    }

    private static func account(_ name: String, _ connection: SQLiteConnection) throws(QueueError) -> Account?
    {
        guard
            let row = try connection.query(
                "SELECT transforms_per_month, overage FROM variantd_accounts WHERE name = ?", [.text(name)]
            ).first,
            let allowance = row[0].flatMap({ Int($0) }), let overage = row[1].flatMap(Account.Overage.init)
        else { return nil }
        return Account(name: name, transformsPerMonth: allowance, overage: overage)
    }
}
