internal import CSQLite
internal import CSQLiteShims
import Foundation
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection: the only file that calls libsqlite3. Statements take typed parameters and give
/// rows of optional text, which the queue parses; no SQLite type leaves this file.
///
/// Statements are prepared once per connection and kept (keyed by their text), so a claim or an enqueue
/// repeated thousands of times a second is not parsed and planned again each time.
///
/// Not thread-safe: its owner serialises every call (see `SQLiteQueue`).
final class SQLiteConnection {
    /// A value bound to a `?` placeholder.
    enum Parameter: Sendable, Equatable {
        case null
        case integer(Int64)
        case text(String)
    }

    private let handle: OpaquePointer
    private var prepared: [String: OpaquePointer] = [:]
    /// The place whose failed writes (a full disk, a read-only or failing file system) `WriteHealth` is
    /// told of, with the `errno` SQLite met; nil for a database no answer depends on.
    var writes: WriteHealth.Place?

    /// Opens (creating if needed) the database file with a busy timeout, so concurrent writers wait
    /// their turn instead of failing at once.
    init(path: String, busyTimeout: Duration = .seconds(10)) throws(QueueError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard let opened else { throw QueueError("SQLite cannot open \(path): out of memory") }
        guard status == SQLITE_OK else {
            // SQLite's words say only "unable to open": a read-only folder is the operator's to fix.
            let folder = (path as NSString).deletingLastPathComponent
            let readOnly = FileSystem.room(at: folder.isEmpty ? "." : folder)?.readOnly == true
            let message =
                String(cString: sqlite3_errmsg(opened)) + (readOnly ? " (the file system is read-only)" : "")
            sqlite3_close_v2(opened)
            throw QueueError("SQLite cannot open \(path): \(message)")
        }
        handle = opened
        let timeout = sqlite3_busy_timeout(handle, Int32(busyTimeout.components.seconds * 1000))
        guard timeout == SQLITE_OK else { throw failure(timeout) }
    }

    deinit {
        for statement in prepared.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// The linked library's version, e.g. `3.40.1`.
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Runs one or more statements without parameters or results (pragmas, schema, transaction control).
    func execute(_ sql: String) throws(QueueError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            tellWriteFailure(status)
            throw QueueError("SQLite: \(text)", busy: Self.isBusy(status))
        }
    }

    /// Runs one statement and returns every row, each column as text or nil for NULL.
    @discardableResult
    func query(_ sql: String, _ parameters: [Parameter] = []) throws(QueueError) -> [[String?]] {
        let statement = try statement(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        var status = SQLITE_OK
        for (offset, parameter) in parameters.enumerated() {
            let index = Int32(offset + 1)
            switch parameter {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
            case .text(let value): status = vs_bind_text(statement, index, value, -1)
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [[String?]] = []
        while true {
            status = sqlite3_step(statement)
            guard status == SQLITE_ROW else { break }
            let columns = sqlite3_column_count(statement)
            rows.append(
                (0..<columns).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                })
        }
        guard status == SQLITE_DONE else { throw failure(status) }
        if let writes, sqlite3_stmt_readonly(statement) == 0 {
            WriteHealth.shared.record(writes, failure: nil)
        }
        return rows
    }

    /// The prepared form of `sql`, prepared on first use and kept for the connection's life.
    private func statement(_ sql: String) throws(QueueError) -> OpaquePointer {
        if let statement = prepared[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(
            handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        prepared[sql] = statement
        return statement
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// SQLite's failure rule: a call returns a status other than OK (or ROW, DONE while stepping) and leaves
    /// its words in the connection's error message.
    private func failure(_ status: Int32) -> QueueError {
        tellWriteFailure(status)
        return QueueError("SQLite: \(String(cString: sqlite3_errmsg(handle)))", busy: Self.isBusy(status))
    }

    /// Tells `WriteHealth` of a write the file system refused: the `errno` SQLite met, or the one its
    /// status stands for.
    private func tellWriteFailure(_ status: Int32) {
        guard let writes else { return }
        let fallback: Int32
        switch status & 0xff {
        case SQLITE_FULL: fallback = ENOSPC
        case SQLITE_READONLY: fallback = EROFS
        case SQLITE_IOERR: fallback = EIO
        default: return
        }
        let met = sqlite3_system_errno(handle)
        WriteHealth.shared.record(writes, failure: met != 0 ? met : fallback)
    }

    private static func isBusy(_ status: Int32) -> Bool {
        status & 0xff == SQLITE_BUSY || status & 0xff == SQLITE_LOCKED
    }
}
