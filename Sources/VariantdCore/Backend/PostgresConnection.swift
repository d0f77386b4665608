internal import CPostgres
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One PostgreSQL connection through libpq: the only file that calls it. Parameters and columns travel
/// as text (PostgreSQL casts them), so no libpq type leaves this file.
///
/// Not thread-safe: its owner serialises every call (see `PostgresQueue`).
final class PostgresConnection {
    /// A message received on a channel this connection listens to.
    struct Notification: Sendable, Equatable {
        var channel: String
        var payload: String
    }

    private let handle: OpaquePointer

    /// Connects with a libpq connection string or a `postgres://` URL.
    init(url: String) throws(QueueError) {
        guard let connection = PQconnectdb(url) else { throw QueueError("PostgreSQL: out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw QueueError("PostgreSQL cannot connect: \(message)")
        }
        handle = connection
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still up; a dropped one is re-established with `reset()`.
    var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Re-establishes a dropped connection (LISTENs must be issued again).
    func reset() {
        PQreset(handle)
    }

    /// The server's version number, e.g. 150020.
    var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// Runs one statement with `$1…` parameters, or several statements when there are none, and returns
    /// every row, each column as text or nil for NULL.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(QueueError) -> [[String?]] {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            let copies = parameters.map { $0.flatMap { strdup($0) } }
            defer { for copy in copies { free(copy) } }
            let pointers = copies.map { UnsafePointer<CChar>($0) }
            result = PQexecParams(handle, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        guard let result else {
            throw QueueError("PostgreSQL: \(Self.trimmed(PQerrorMessage(handle)))")
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return []
        case PGRES_TUPLES_OK:
            let columns = PQnfields(result)
            return (0..<PQntuples(result)).map { row in
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1
                        ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.trimmed(PQresultErrorMessage(result))
            // 40001 serialization failure, 40P01 deadlock, 55P03 lock not available: worth another try.
            let busy = ["40001", "40P01", "55P03"].contains(state ?? "")
            throw QueueError("PostgreSQL: \(message)", busy: busy)
        }
    }

    /// Waits up to `timeout` for notifications on the channels this connection listens to.
    func notifications(waiting timeout: Duration) throws(QueueError) -> [Notification] {
        var received = drain()
        guard received.isEmpty else { return received }
        var poller = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000
                + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return [] }
        guard PQconsumeInput(handle) == 1 else {
            throw QueueError("PostgreSQL: \(Self.trimmed(PQerrorMessage(handle)))")
        }
        received = drain()
        return received
    }

    private func drain() -> [Notification] {
        var received: [Notification] = []
        while let notice = PQnotifies(handle) {
            received.append(
                Notification(
                    channel: String(cString: notice.pointee.relname),
                    payload: String(cString: notice.pointee.extra)))
            PQfreemem(notice)
        }
        return received
    }

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        (text.map { String(cString: $0) } ?? "unknown error").trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
}
