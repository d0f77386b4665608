import Foundation
import Testing

@testable import VariantdCore

/// The queue contract on SQLite files in temporary directories.
@Suite struct SQLiteQueueTests {
    /// A queue file of its own for one test, and the contract opening connections to it.
    private func contract() throws -> (QueueContract, URL) {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.appendingPathComponent("queue.sqlite3").path
        return (
            QueueContract { policy in try await SQLiteQueue(path: path, policy: policy) }, directory
        )
    }

    private func check(_ body: (QueueContract) async throws -> Void) async throws {
        let (contract, directory) = try contract()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(contract)
    }

    @Test func dedupesWhileWaitingOrRunning() async throws {
        try await check { try await $0.dedupesWhileWaitingOrRunning() }
    }
    @Test func claimsEachJobOnce() async throws {
        try await check { try await $0.claimsEachJobOnce() }
    }
    @Test func fencesAStaleWorker() async throws {
        try await check { try await $0.fencesAStaleWorker() }
    }
    @Test func retriesTransientFailuresThenDiscards() async throws {
        try await check { try await $0.retriesTransientFailuresThenDiscards() }
    }
    @Test func makesDeterministicOutcomesFinalAtOnce() async throws {
        try await check { try await $0.makesDeterministicOutcomesFinalAtOnce() }
    }
    @Test func makesAJobUnreadableAfterTwoDecoderCrashes() async throws {
        try await check { try await $0.makesAJobUnreadableAfterTwoDecoderCrashes() }
    }
    @Test func reportsAndListsFinalJobs() async throws {
        try await check { try await $0.reportsAndListsFinalJobs() }
    }
    @Test func enqueuesABatchOnceAndAddsOnlyWhatIsMissing() async throws {
        try await check { try await $0.enqueuesABatchOnceAndAddsOnlyWhatIsMissing() }
    }
    @Test func finishesABatchInOneWrite() async throws {
        try await check { try await $0.finishesABatchInOneWrite() }
    }
    @Test func pagesThroughJobsByStateAndBucket() async throws {
        try await check { try await $0.pagesThroughJobsByStateAndBucket() }
    }
    @Test func purgesOldFinalJobsWithTheirAttempts() async throws {
        try await check { try await $0.purgesOldFinalJobsWithTheirAttempts() }
    }
    @Test func wakesAWaitingWorkerOnEnqueue() async throws {
        try await check { try await $0.wakesAWaitingWorkerOnEnqueue() }
    }

    @Test func migratesOnceAndKeepsJobs() async throws {
        try await check { contract in
            try await contract.migratesOnceAndKeepsJobs {
                try await ($0 as! SQLiteQueue).schemaVersions()
            }
        }
    }

    @Test func usesWriteAheadLogging() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("nested/queue.sqlite3").path
        _ = try await SQLiteQueue(path: path)
        let mode = try SQLiteConnection(path: path).query("PRAGMA journal_mode").first?[0]
        #expect(mode == "wal")
    }
}
