extension PostgresQueue {
    /// The row is locked for the transaction, so two records of one object are applied one after the other;
    /// the previous checksum is orphaned only when no row holds it once this one is written.
    public func record(bucket: String, path: String, checksum: String) async throws(QueueError) -> String? {
        try await run(rerunnable: true) { connection throws(QueueError) in
            try Self.transaction(connection) { () throws(QueueError) -> String? in
                let previous = try Self.checksum(bucket, path, connection)
                try connection.query(
                    """
                    INSERT INTO variantd_objects (bucket, path, checksum) VALUES ($1, $2, $3)
                    ON CONFLICT (bucket, path) DO UPDATE SET checksum = excluded.checksum, updated_at = now()
                    """, [bucket, path, checksum])
                guard let previous, previous != checksum else { return nil }
                return try Self.isHeld(previous, connection) ? nil : previous
            }
        }
    }

    public func forget(bucket: String, path: String) async throws(QueueError) -> String? {
        try await run(rerunnable: true) { connection throws(QueueError) in
            try Self.transaction(connection) { () throws(QueueError) -> String? in
                guard
                    let checksum = try connection.query(
                        "DELETE FROM variantd_objects WHERE bucket = $1 AND path = $2 RETURNING checksum",
                        [bucket, path]
                    ).first?[0] ?? nil
                else { return nil }
                return try Self.isHeld(checksum, connection) ? nil : checksum
            }
        }
    }

    private static func checksum(_ bucket: String, _ path: String, _ connection: PostgresConnection)
        throws(QueueError) -> String?
    {
        try connection.query(
            "SELECT checksum FROM variantd_objects WHERE bucket = $1 AND path = $2 FOR UPDATE",
            [bucket, path]
        ).first?[0] ?? nil
    }

    private static func isHeld(_ checksum: String, _ connection: PostgresConnection) throws(QueueError)
        -> Bool
    {
        !(try connection.query("SELECT 1 FROM variantd_objects WHERE checksum = $1 LIMIT 1", [checksum]))
            .isEmpty
    }
}
