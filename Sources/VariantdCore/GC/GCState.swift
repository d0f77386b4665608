import Foundation
import Variants

/// What `gc` has hashed, kept in an SQLite file so that a run hashes only the objects that changed since the
/// last one, and so that a run stopped halfway loses nothing it hashed. Per walked location and object path:
/// the object's version (`SourceVersion.identity`) and the checksum of its bytes, and the run that last saw
/// it there. The checksums of the objects the current run has seen are its live set: looked up one at a
/// time through an index, never loaded, so millions of sources cost the memory of a page.
///
/// One run at a time per file: a second `gc` on the same file would stamp objects with its own run and make
/// the first one's live set look empty, so the file is locked for the run (`flock` on a file beside it).
///
/// Not thread-safe: the run calls it from one thread.
final class GCState {
    let file: String
    private let connection: SQLiteConnection
    private let lock: FileDescriptor
    /// Writes since the last commit; they go to disk together, every `commitEvery`.
    private var pending = 0
    private static let commitEvery = 500

    /// Where it is kept by default: beside the queue and the quarantine.
    static func defaultFile(in dataDirectory: String) -> String {
        dataDirectory + "/gc.sqlite3"
    }

    /// Opens (creating it and its folder if needed) the state file and takes its lock.
    init(file: String) throws(GCError) {
        self.file = file
        let folder = (file as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        do {
            lock = try FileDescriptor.open(file + ".lock", .updating)
        } catch {
            throw GCError(.ioError, "the state file \(file) cannot be opened: \(error.message)")
        }
        guard lock.tryLock() else {
            lock.close()
            throw GCError(.temporaryFailure, "another gc is running with the state file \(file)")
        }
        do {
            connection = try SQLiteConnection(path: file)
            // NORMAL in WAL mode: a power cut may lose the last commits (objects hashed again), never the file.
            try connection.execute(
                """
                PRAGMA journal_mode = WAL;
                PRAGMA synchronous = NORMAL;
                CREATE TABLE IF NOT EXISTS sources (
                    root TEXT NOT NULL,
                    path TEXT NOT NULL,
                    identity TEXT,
                    sha256 TEXT NOT NULL,
                    seen INTEGER NOT NULL,
                    PRIMARY KEY (root, path)
                ) WITHOUT ROWID;
                CREATE INDEX IF NOT EXISTS sources_live ON sources (root, sha256, seen);
                CREATE TABLE IF NOT EXISTS runs (
                    root TEXT PRIMARY KEY NOT NULL,
                    last INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        } catch {
            lock.close()
            throw GCError(state: file, error)
        }
    }

    deinit {
        try? commit()
        lock.close()
    }

    /// A new run over `root`: its number, one more than the last run's over the same location.
    func beginRun(root: String) throws(QueueError) -> Int64 {
        try connection.query(
            "INSERT INTO runs (root, last) VALUES (?, 1) ON CONFLICT (root) DO UPDATE SET last = last + 1",
            [.text(root)])
        let rows = try connection.query("SELECT last FROM runs WHERE root = ?", [.text(root)])
        guard let text = rows.first?.first ?? nil, let run = Int64(text) else {
            throw QueueError("SQLite: the run over \(root) was not recorded")
        }
        return run
    }

    /// The checksum remembered for the object at `path` when it was last seen as this very version; nil when
    /// it is new, changed, or its version could not be told.
    func checksum(root: String, path: String, identity: String) throws(QueueError) -> String? {
        let rows = try connection.query(
            "SELECT sha256 FROM sources WHERE root = ? AND path = ? AND identity = ?",
            [.text(root), .text(path), .text(identity)])
        return rows.first?.first ?? nil
    }

    /// Records that the run saw the object at `path` holding the bytes `checksum`; a nil identity is one not to
    /// trust next time (the object was changing as it was read).
    func record(root: String, path: String, identity: String?, checksum: String, run: Int64)
        throws(QueueError)
    {
        try begin()
        try connection.query(
            """
            INSERT INTO sources (root, path, identity, sha256, seen) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (root, path) DO UPDATE SET identity = excluded.identity, sha256 = excluded.sha256,
                seen = excluded.seen
            """,
            [.text(root), .text(path), identity.map { .text($0) } ?? .null, .text(checksum), .integer(run)])
        try countWrite()
    }

    /// Whether some object the run saw under `root` holds the bytes `checksum`.
    func isLive(root: String, checksum: String, run: Int64) throws(QueueError) -> Bool {
        try commit()
        return try !connection.query(
            "SELECT 1 FROM sources WHERE root = ? AND sha256 = ? AND seen = ? LIMIT 1",
            [.text(root), .text(checksum), .integer(run)]
        ).isEmpty
    }

    /// Forgets the objects the run did not see: they are gone. Only after a walk that covered everything.
    func forgetUnseen(root: String, run: Int64) throws(QueueError) {
        try commit()
        try connection.query("DELETE FROM sources WHERE root = ? AND seen < ?", [.text(root), .integer(run)])
    }

    /// Writes what is pending to disk.
    func commit() throws(QueueError) {
        guard pending > 0 else { return }
        pending = 0
        try connection.execute("COMMIT")
    }

    private func begin() throws(QueueError) {
        if pending == 0 { try connection.execute("BEGIN") }
    }

    private func countWrite() throws(QueueError) {
        pending += 1
        if pending >= Self.commitEvery { try commit() }
    }
}
