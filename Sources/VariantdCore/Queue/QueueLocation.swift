import Foundation

/// Which queue a command uses, from `--queue`: `sqlite:PATH`, `postgres://…` (or `postgresql://…`), or by
/// default the SQLite file `queue.sqlite3` under the data directory.
public enum QueueLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    /// Where variantd keeps its own state when `--data-dir` is not given.
    public static var defaultDataDirectory: String {
        ProcessInfo.processInfo.environment["VARIANTD_DATA_DIR"] ?? "/var/lib/variantd"
    }

    public init(parsing text: String?, dataDirectory: String = QueueLocation.defaultDataDirectory)
        throws(UsageError)
    {
        guard let text else {
            self = .sqlite(path: dataDirectory + "/queue.sqlite3")
            return
        }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:"), text.count > "sqlite:".count {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            throw UsageError("'--queue' takes sqlite:PATH or postgres://…, got '\(text)'")
        }
    }

    /// Reads `--queue` and `--data-dir`, the options every queue command shares.
    package static func parse(_ arguments: inout Arguments) throws(UsageError) -> (
        location: QueueLocation, dataDirectory: String
    ) {
        let queue = try arguments.option("--queue")
        let dataDirectory = try arguments.option("--data-dir") ?? defaultDataDirectory
        return (try QueueLocation(parsing: queue, dataDirectory: dataDirectory), dataDirectory)
    }

    /// Opens the queue, applying pending migrations. `connections` bounds the process's PostgreSQL pool
    /// (SQLite uses one connection: its writers take turns anyway).
    public func open(policy: JobAttemptPolicy = JobAttemptPolicy(), connections: Int = 4)
        async throws(QueueError)
        -> any JobQueue
    {
        switch self {
        case .sqlite(let path): try await SQLiteQueue(path: path, policy: policy)
        case .postgres(let url): try await PostgresQueue(url: url, policy: policy, connections: connections)
        }
    }
}
