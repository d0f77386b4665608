import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore
@testable import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// Several `variantd work` processes on one queue, killed with SIGKILL at random moments and restarted:
/// every job must end in exactly one final state (none lost, none finished twice by the attempt log),
/// and every rendition on disk must be whole.
@Suite(.serialized, .postgresServer)
struct WorkChaosTests {
    static let jobCount = 500
    static let workers = 3
    static let kills = 8

    @Test func sqliteQueueSurvivesKilledWorkers() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("queue.sqlite3").path
        try await chaos(queue: "sqlite:\(path)", directory: directory) {
            try await SQLiteQueue(path: path)
        }
    }

    @Test(
        .enabled(if: PostgresServer.isAvailable, "PostgreSQL binaries are absent; run scripts/setup.sh")
    )
    func postgresQueueSurvivesKilledWorkers() async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await chaos(queue: url, directory: directory) { try await PostgresQueue(url: url) }
    }

    /// PostgreSQL stopped at once and started again, three times, while two workers claim and finish: the
    /// connections in use are cut mid-claim and mid-finish. A worker that gives up on the queue is started
    /// again, as systemd would; in the end every job is final, finished exactly once by the attempt log.
    @Test(
        .enabled(if: PostgresServer.isAvailable, "PostgreSQL binaries are absent; run scripts/setup.sh")
    )
    func postgresRestartedUnderWorkersLosesNoJobAndFinishesNoneTwice() async throws {
        let server = try #require(PostgresServer.current)
        let url = try server.freshDatabase()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let workload = try ChaosWorkload(queue: url, in: directory)
        let jobCount = 200
        let queue = try await PostgresQueue(url: url)
        try await workload.enqueue(jobCount, into: queue)
        let workers = try (0..<2).map { _ in try workload.startWorker() }
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...900)))
            try await server.restart(after: .milliseconds(Int.random(in: 200...1500)))
        }
        let (finished, restarted) = try await workload.superviseUntilFinal(
            workers, queue: queue, within: .seconds(150))
        #expect(finished, "every job final within 150 s")

        let jobs = try await workload.checkEveryJobFinishedOnce(in: queue, count: jobCount)
        #expect(jobs.filter { $0.state == .completed }.count >= jobCount / 2, "\(restarted) restarts")
    }

    private func chaos(queue location: String, directory: URL, open: () async throws -> any JobQueue)
        async throws
    {
        let workload = try ChaosWorkload(queue: location, in: directory)
        let queue = try await open()
        try await workload.enqueue(Self.jobCount, into: queue)
        var workers = try (0..<Self.workers).map { _ in try workload.startWorker() }
        for _ in 0..<Self.kills {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...900)))
            let victim = Int.random(in: 0..<workers.count)
            kill(workers[victim].processIdentifier, SIGKILL)
            workers[victim].waitUntilExit()
            workers[victim] = try workload.startWorker()
        }
        let deadline = ContinuousClock.now + .seconds(150)
        while workers.contains(where: \.isRunning), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        for worker in workers where worker.isRunning {
            Issue.record("a worker did not finish within 150 s")
            kill(worker.processIdentifier, SIGKILL)
            worker.waitUntilExit()
        }
        for worker in workers { #expect(worker.terminationStatus == 0) }

        let jobs = try await workload.checkEveryJobFinishedOnce(in: queue, count: Self.jobCount)
        #expect(jobs.filter { $0.state == .completed }.count >= Self.jobCount / 2)
        #expect(
            jobs.filter { $0.source.hasSuffix("truncated.jpg") }.allSatisfy { $0.state == .unreadable })
        #expect(jobs.filter { $0.source.hasSuffix(".pdf") }.allSatisfy { $0.state == .failed })
    }
}
