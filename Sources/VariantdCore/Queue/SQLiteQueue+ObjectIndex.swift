extension SQLiteQueue {
    public func record(bucket: String, path: String, checksum: String) async throws(QueueError) -> String? {
        try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) -> String? in
                let previous = try Self.checksum(bucket, path, connection)
                try connection.query(
                    """
                    INSERT INTO variantd_objects (bucket, path, checksum, updated_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (bucket, path) DO UPDATE SET checksum = excluded.checksum,
                        updated_at = excluded.updated_at
                    """,
                    [.text(bucket), .text(path), .text(checksum), .integer(Timestamp.now.milliseconds)])
                guard let previous, previous != checksum else { return nil }
                return try Self.isHeld(previous, connection) ? nil : previous
            }
        }
    }

    public func forget(bucket: String, path: String) async throws(QueueError) -> String? {
        try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) -> String? in
                guard let checksum = try Self.checksum(bucket, path, connection) else { return nil }
                try connection.query(
                    "DELETE FROM variantd_objects WHERE bucket = ? AND path = ?",
                    [.text(bucket), .text(path)])
                return try Self.isHeld(checksum, connection) ? nil : checksum
            }
        }
    }

    private static func checksum(_ bucket: String, _ path: String, _ connection: SQLiteConnection)
        throws(QueueError) -> String?
    {
        try connection.query(
            "SELECT checksum FROM variantd_objects WHERE bucket = ? AND path = ?",
            [.text(bucket), .text(path)]
        ).first?[0] ?? nil
    }

    private static func isHeld(_ checksum: String, _ connection: SQLiteConnection) throws(QueueError) -> Bool
    {
        !(try connection.query("SELECT 1 FROM variantd_objects WHERE checksum = ? LIMIT 1", [.text(checksum)]))
            .isEmpty
    }
}
