internal import CPostgres
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One PostgreSQL connection through libpq: the only file that calls it. Parameters and columns travel
/// as text (PostgreSQL casts them), so no libpq type leaves this file.
///
/// Statements with parameters are prepared once per session (named by their order of first use) and then
/// only executed, so the server parses and plans a claim once, not thousands of times a second.
///
/// Not thread-safe: its owner lends it to one call at a time (see `PostgresPool`).
final class PostgresConnection {
    /// A message received on a channel this connection listens to.
    struct Notification: Sendable, Equatable {
        var channel: String
        var payload: String
    }

    private let handle: OpaquePointer
    /// Statement text → name of its prepared form on this connection.
    private var prepared: [String: String] = [:]
    /// The server answered that it cannot take writes now (`PostgresSQLState.meansServerUnavailable`):
    /// the session is treated as dropped, so the next use connects again to whatever is behind the address.
    private var abandoned = false

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

    /// Whether the connection is still up, found without a round trip: libpq learns that the server ended
    /// the session (a restart, a failover, `pg_terminate_backend`, an idle-session timeout) only by reading,
    /// so what the server left on the socket (its last words, then the end of the stream, each taking a
    /// read) is read first. A session whose server refused a statement for being read-only or shutting down
    /// counts as dropped too. A dropped connection is re-established with `reset()`.
    func isConnected() -> Bool {
        guard !abandoned else { return false }
        var poller = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        while PQstatus(handle) == CONNECTION_OK, poll(&poller, 1, 0) > 0, PQconsumeInput(handle) == 1 {}
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Re-establishes a dropped connection (LISTENs must be issued again).
    func reset() throws(QueueError) {
        prepared = [:]
        abandoned = false
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw QueueError("PostgreSQL cannot connect: \(Self.trimmed(PQerrorMessage(handle)))")
        }
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
            let name = try statementName(sql, parameters: parameters.count)
            let copies = parameters.map { $0.flatMap { strdup($0) } }
            defer { for copy in copies { free(copy) } }
            let pointers = copies.map { UnsafePointer<CChar>($0) }
            result = PQexecPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0)
        }
        guard let result else {
            throw failure
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
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            if PostgresSQLState.meansServerUnavailable(state) { abandoned = true }
            let message = Self.trimmed(PQresultErrorMessage(result))
            throw QueueError("PostgreSQL: \(message)", busy: PostgresSQLState.isBusy(state))
        }
    }

    /// The name `sql` is prepared under on this connection, preparing it on first use.
    private func statementName(_ sql: String, parameters: Int) throws(QueueError) -> String {
        if let name = prepared[sql] { return name }
        let name = "variantd_\(prepared.count)"
        guard let result = PQprepare(handle, name, sql, Int32(parameters), nil) else {
            throw failure
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw QueueError(
                "PostgreSQL cannot prepare a statement: \(Self.trimmed(PQresultErrorMessage(result)))")
        }
        prepared[sql] = name
        return name
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
            throw failure
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

    /// libpq's failure rule: a call that returns no result or a bad status leaves its words in the
    /// connection's error message.
    private var failure: QueueError { QueueError("PostgreSQL: \(Self.trimmed(PQerrorMessage(handle)))") }

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        (text.map { String(cString: $0) } ?? "unknown error").trimmingCharacters(
            in: .whitespacesAndNewlines)
    }
}
