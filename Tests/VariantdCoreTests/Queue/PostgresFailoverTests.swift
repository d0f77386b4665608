import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// PostgreSQL failed over to a synchronous standby behind the address the workers use, while they claim and
/// finish: no job is lost, none is finished twice, nothing the queue reported committed before the
/// fail-over is missing after it, and new jobs wake idle claimers again.
@Suite(
    .serialized, .postgresServer,
    .enabled(if: PostgresServer.isAvailable, "PostgreSQL binaries are absent; run scripts/setup.sh"),
    .enabled(if: TCPRelay.isAvailable, "socat is absent (/usr/bin/socat); run scripts/setup.sh")
)
struct PostgresFailoverTests {
    static let jobCount = 200

    /// The primary is stopped at once and the address moved to the standby before it is promoted, so for a
    /// while the address answers but refuses every write (SQLSTATE 25006), as during a real fail-over; then
    /// the standby is promoted. Workers started again where they gave up, as systemd would. The test's own
    /// queue goes through the fail-over too: its `LISTEN`, refused by the standby, is taken again once the
    /// standby is promoted.
    @Test func failoverToAStandbyBehindTheSameAddressLosesNoJobAndFinishesNoneTwice() async throws {
        let primary = try #require(PostgresServer.current)
        let database = try #require(URL(string: try primary.freshDatabase())).lastPathComponent
        let standby = try await primary.standby()
        defer { standby.stop() }
        let relay = try await TCPRelay(to: primary.port)
        defer { relay.stop() }
        let url = "postgres://postgres@127.0.0.1:\(relay.port)/\(database)"
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let workload = try ChaosWorkload(queue: url, in: directory)
        let queue = try await PostgresQueue(url: url)
        try await workload.enqueue(Self.jobCount, into: queue)
        let workers = try (0..<2).map { _ in try workload.startWorker() }
        // A third worker whose readiness an operator's load balancer would watch.
        let watchedLog = directory.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: watchedLog, withIntermediateDirectories: true)
        let watched = try DaemonProcess(
            Array(workload.arguments.dropFirst().filter { $0 != "--until-idle" }) + [
                "--listen", "127.0.0.1:0",
            ],
            directory: watchedLog, command: "work")
        defer { watched.kill() }

        // Mid-run: once some jobs are completed, however fast the machine is.
        let started = ContinuousClock.now
        var completedBefore: [Job] = []
        while completedBefore.count < 10 {
            try #require(ContinuousClock.now < started + .seconds(300), "no 10 jobs completed within 300 s")
            try await Task.sleep(for: .milliseconds(100))
            completedBefore = try await queue.jobs(in: .completed, limit: Self.jobCount)
        }
        try primary.stopAtOnce()
        try await relay.switchTarget(to: standby.port)
        let refusal = #expect(throws: QueueError.self) {
            try PostgresConnection(url: url).query("CREATE TABLE refused (id integer)")
        }
        #expect(refusal?.message.contains("read-only") == true, "\(refusal?.message ?? "")")
        // Read-only until the watched worker says so, however long its next claim takes to come.
        let unwritable = try await Self.readiness(of: watched, becomes: 503, within: .seconds(60))
        #expect(unwritable == "queue_unwritable", "readiness while the address is read-only: \(unwritable)")
        try standby.promote()
        let ready = try await Self.readiness(of: watched, becomes: 200, within: .seconds(60))
        #expect(ready == "ready", "readiness once the standby is promoted: \(ready)")
        watched.signal(SIGTERM)

        let (finished, restarted) = try await workload.superviseUntilFinal(
            workers, queue: queue, within: .seconds(150))
        #expect(finished, "every job final within 150 s")
        let jobs = try await workload.checkEveryJobFinishedOnce(in: queue, count: Self.jobCount)
        let states = Dictionary(jobs.map { ($0.id, $0.state) }, uniquingKeysWith: { first, _ in first })
        let kept = completedBefore.filter { states[$0.id] == .completed }
        #expect(
            kept.count == completedBefore.count,
            "\(completedBefore.count - kept.count) of \(completedBefore.count) jobs completed before the fail-over are not after it"
        )
        let completed = jobs.filter { $0.state == .completed }.count
        #expect(completed >= Self.jobCount / 2, "\(completed) completed, \(restarted) workers started again")
        #expect(try await Self.isWokenByAJobInsertedElsewhere(queue, url: url))
    }

    /// Polls `/readyz` until it answers `status` or `limit` passes, and returns its last `status` field.
    private static func readiness(of worker: DaemonProcess, becomes status: Int, within limit: Duration)
        async throws -> String
    {
        let deadline = ContinuousClock.now + limit
        var reply = try worker.send("GET", "/readyz")
        while reply.status != status, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            reply = try worker.send("GET", "/readyz")
        }
        return reply.json["status"] as? String ?? "\(reply.status)"
    }

    /// Whether a job inserted by plain SQL (its trigger notifies) wakes `queue` within 5 s, tried again until
    /// one does or 120 s have passed; a wait that ends before its 5 s was woken.
    private static func isWokenByAJobInsertedElsewhere(_ queue: PostgresQueue, url: String) async throws
        -> Bool
    {
        let storage = try PostgresConnection(url: url)
        let deadline = ContinuousClock.now + .seconds(120)
        var index = 0
        while ContinuousClock.now < deadline {
            index += 1
            try storage.query(
                """
                INSERT INTO variantd_jobs (bucket, path, version, source, content_type)
                VALUES ('chaos', 'inserted-\(index)', '', 'pictures/gradient.jpg', 'image/jpeg')
                """)
            let waiting = ContinuousClock.now
            await queue.waitForWork(upTo: .seconds(5))
            if waiting.duration(to: .now) < .seconds(5) { return true }
        }
        return false
    }
}
