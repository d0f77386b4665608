import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// A queue backend the contract runs on: a SQLite file of its own, or a fresh database on the PostgreSQL
/// server the suite starts (present only where the PostgreSQL binaries are installed).
enum QueueBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var available: [QueueBackend] { PostgresServer.isAvailable ? allCases : [.sqlite] }

    var testDescription: String { rawValue }

    /// A new queue for one test: `open` gives a new connection to it on every call, as another process would
    /// have; `remove` deletes it.
    func create() throws -> (
        open: @Sendable (JobAttemptPolicy) async throws -> any JobQueue, remove: @Sendable () -> Void
    ) {
        switch self {
        case .sqlite:
            let directory = try TestPaths.temporaryDirectory()
            let path = directory.appendingPathComponent("queue.sqlite3").path
            return (
                { policy in try await SQLiteQueue(path: path, policy: policy) },
                { try? FileManager.default.removeItem(at: directory) }
            )
        case .postgres:
            let server = try #require(PostgresServer.current)
            let url = try server.freshDatabase()
            return ({ policy in try await PostgresQueue(url: url, policy: policy) }, {})
        }
    }

    func schemaVersions(_ queue: any JobQueue) async throws -> [Int] {
        switch self {
        case .sqlite: try await (queue as! SQLiteQueue).schemaVersions()
        case .postgres: try await (queue as! PostgresQueue).schemaVersions()
        }
    }
}
