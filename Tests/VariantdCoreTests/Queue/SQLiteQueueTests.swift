import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// What only the SQLite queue does (the shared contract is `QueueContract`).
@Suite struct SQLiteQueueTests {
    @Test func usesWriteAheadLogging() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/queue.sqlite3").path
        _ = try await SQLiteQueue(path: path)
        let mode = try SQLiteConnection(path: path).query("PRAGMA journal_mode").first?[0]
        #expect(mode == "wal")
    }
}
