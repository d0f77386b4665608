import Foundation
import Testing
import VariantdTestSupport
import Variants

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

    @Test func readsAStoreOutageStoredUnderItsOldCode() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        let id = try await queue.enqueue(try QueueContract.job("a.jpg")).id
        try SQLiteConnection(path: path).execute(
            #"UPDATE variantd_jobs SET result = '{"statusCode":503,"error":"transform_busy","message":"m"}'"#)
        let job = try #require(try await queue.job(id: id))
        #expect(job.error == VariantsError(.storeUnavailable, "m"))
    }
}
