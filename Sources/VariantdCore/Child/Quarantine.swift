import Foundation

/// Files that killed or hung decoders, by SHA-256: how many attempts each has cost, when, and why. Kept in
/// an SQLite file so a restart does not feed a known killer to a fresh child, and shared by every variantd
/// process pointed at the same file (serve, work, batch; `variantd quarantine` for the operator). Without a
/// file it lives in memory for the process. Bounded, so a flood of distinct crashing files cannot grow it
/// without limit: past `capacity` entries the oldest failures go first.
///
/// Not thread-safe: its owner (a `PipelinePool` actor, or a command) serialises every call. A database
/// error never blocks a job: a failure that cannot be recorded is only not remembered.
final class Quarantine {
    static let defaultCapacity = 10_000
    /// Failures after which a file is refused on sight, whoever counted them: the pool's two attempts, or the
    /// queue's two crashes of a job whose pool makes one attempt per claim (one death, which load or a stop can
    /// cause, condemns no file).
    static let refusedAfter = 2

    /// One quarantined (or suspected) file.
    struct Entry: Sendable, Equatable, Codable {
        var checksumSha256: String
        /// Decoder deaths or overruns on this file so far.
        var failures: Int
        var firstFailure: Timestamp
        var lastFailure: Timestamp
        /// The last failure's reason code and message, e.g. `decoder_crash: … (signal 6) …`.
        var reason: String
    }

    private let connection: SQLiteConnection
    let capacity: Int

    /// Where `work` and `variantd quarantine` keep it by default: beside the default queue.
    static func defaultFile(in dataDirectory: String) -> String {
        dataDirectory + "/quarantine.sqlite3"
    }

    /// The database file and the companions SQLite keeps beside it (its write-ahead log, shared memory and
    /// rollback journal), for a walk to leave out.
    static func files(of file: String) -> [String] {
        [file] + ["-wal", "-shm", "-journal"].map { file + $0 }
    }

    /// Opens (creating it and its folder if needed) the quarantine file; nil keeps it in memory.
    init(file: String?, capacity: Int = Quarantine.defaultCapacity) throws(QueueError) {
        self.capacity = capacity
        if let file {
            let folder = (file as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
        }
        connection = try SQLiteConnection(path: file ?? ":memory:")
        if let file {
            connection.writes = .quarantine
            let folder = (file as NSString).deletingLastPathComponent
            WriteHealth.shared.watch(.quarantine, directory: folder.isEmpty ? "." : folder)
        }
        try connection.execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE IF NOT EXISTS quarantine (
                sha256 TEXT PRIMARY KEY NOT NULL,
                failures INTEGER NOT NULL,
                first_failure INTEGER NOT NULL,
                last_failure INTEGER NOT NULL,
                reason TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS quarantine_by_age ON quarantine (last_failure);
            """)
    }

    func recordFailure(_ checksum: String, reason: String, at time: Timestamp = .now) {
        let now = Int64(time.milliseconds)
        _ = try? connection.query(
            """
            INSERT INTO quarantine (sha256, failures, first_failure, last_failure, reason) VALUES (?, 1, ?, ?, ?)
            ON CONFLICT (sha256) DO UPDATE SET failures = failures + 1, last_failure = excluded.last_failure,
                reason = excluded.reason
            """, [.text(checksum), .integer(now), .integer(now), .text(reason)])
        _ = try? connection.query(
            """
            DELETE FROM quarantine WHERE sha256 IN
                (SELECT sha256 FROM quarantine ORDER BY last_failure DESC LIMIT -1 OFFSET ?)
            """, [.integer(Int64(capacity))])
    }

    /// The failures counted against the file so far; 0 when it has none (or they cannot be read).
    func failures(of checksum: String) -> Int {
        let rows =
            (try? connection.query("SELECT failures FROM quarantine WHERE sha256 = ?", [.text(checksum)]))
            ?? []
        return (rows.first?.first ?? nil).flatMap { Int($0) } ?? 0
    }

    /// Every entry, the most recent failure first.
    func entries() throws(QueueError) -> [Entry] {
        try connection.query(
            "SELECT sha256, failures, first_failure, last_failure, reason FROM quarantine ORDER BY last_failure DESC"
        ).compactMap { row in
            guard row.count == 5, let sha = row[0], let failures = row[1].flatMap({ Int($0) }),
                let first = row[2].flatMap({ Int64($0) }), let last = row[3].flatMap({ Int64($0) })
            else { return nil }
            return Entry(
                checksumSha256: sha, failures: failures, firstFailure: Timestamp(milliseconds: first),
                lastFailure: Timestamp(milliseconds: last), reason: row[4] ?? "")
        }
    }

    /// Forgets a file, so the next job with it is decoded again; false when it was not there.
    func release(_ checksum: String) throws(QueueError) -> Bool {
        try connection.query("DELETE FROM quarantine WHERE sha256 = ?", [.text(checksum)])
        return connection.changes > 0
    }
}
