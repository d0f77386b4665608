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
    static let sources = [
        "pictures/gradient.jpg", "pictures/gradient-alpha.png", "pictures/gradient.gif",
        "pictures/gradient.webp",
        "pictures/orientation-6.jpg", "pictures/rgb-29x100.heif", "pictures/hopper.avif",
        "pictures/truncated.jpg",
        "other/document.pdf",
    ]

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
        let (arguments, renditions) = try prepare(queue: url, in: directory)
        let jobCount = 200
        let queue = try await PostgresQueue(url: url)
        for index in 0..<jobCount {
            let request = ObjectRequest(bucket: "chaos", path: "object-\(index)")
            _ = try await queue.enqueue(
                try NewJob(request: request, source: Self.sources[index % Self.sources.count]))
        }
        var workers = try (0..<2).map { _ in try Self.start(arguments) }
        var restartedWorkers = 0
        for _ in 0..<3 {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...900)))
            try await server.restart(after: .milliseconds(Int.random(in: 200...1500)))
        }
        let deadline = ContinuousClock.now + .seconds(150)
        var finished = false
        while !finished, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            for index in workers.indices where !workers[index].isRunning {
                if workers[index].terminationStatus == 0 { continue }
                workers[index] = try Self.start(arguments)
                restartedWorkers += 1
            }
            let counts = (try? await queue.stateCounts()) ?? [:]
            finished = counts.filter { !$0.key.isFinal }.values.reduce(0, +) == 0
        }
        for worker in workers where worker.isRunning {
            kill(worker.processIdentifier, SIGTERM)
            worker.waitUntilExit()
        }
        #expect(finished, "every job final within 150 s")

        let jobs = try await queue.jobs(in: nil, limit: jobCount + 10)
        #expect(jobs.count == jobCount)
        for job in jobs {
            #expect(job.state.isFinal, "job \(job.id) ended \(job.state)")
            let finishes = try await queue.attempts(of: job.id).filter { attempt in
                attempt.outcome.flatMap(JobState.init(rawValue:))?.isFinal == true
            }
            #expect(finishes.count == 1, "job \(job.id) was finished \(finishes.count) times")
            try checkRenditions(of: job, in: renditions)
        }
        #expect(jobs.filter { $0.state == .completed }.count >= jobCount / 2, "\(restartedWorkers) restarts")
        try checkNoPartialFiles(in: renditions, jobs: jobs)
    }

    /// The bucket declaration and the work command line of the tests, and the rendition folder.
    private func prepare(queue location: String, in directory: URL) throws -> (
        arguments: [String], renditions: String
    ) {
        let buckets = directory.appendingPathComponent("buckets")
        let renditions = directory.appendingPathComponent("renditions").path
        try FileManager.default.createDirectory(at: buckets, withIntermediateDirectories: true)
        try """
        { "name": "chaos", "allowedMimeTypes": ["image/*"],
          "variants": { "thumb": { "width": 48, "height": 48, "fit": "cover", "format": "webp" } } }
        """.write(to: buckets.appendingPathComponent("chaos.json"), atomically: true, encoding: .utf8)
        let arguments = [
            "work", "--queue", location, "--root", TestPaths.samples.path, "--buckets", buckets.path,
            "--out",
            renditions, "--workers", "2", "--lease", "2", "--poll", "1", "--backoff-ms", "20",
            "--until-idle",
        ]
        return (arguments, renditions)
    }

    private func chaos(queue location: String, directory: URL, open: () async throws -> any JobQueue)
        async throws
    {
        let (arguments, renditions) = try prepare(queue: location, in: directory)
        let queue = try await open()
        for index in 0..<Self.jobCount {
            let request = ObjectRequest(bucket: "chaos", path: "object-\(index)")
            _ = try await queue.enqueue(
                try NewJob(request: request, source: Self.sources[index % Self.sources.count]))
        }
        var workers = try (0..<Self.workers).map { _ in try Self.start(arguments) }
        for _ in 0..<Self.kills {
            try await Task.sleep(for: .milliseconds(Int.random(in: 300...900)))
            let victim = Int.random(in: 0..<workers.count)
            kill(workers[victim].processIdentifier, SIGKILL)
            workers[victim].waitUntilExit()
            workers[victim] = try Self.start(arguments)
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

        let jobs = try await queue.jobs(in: nil, limit: Self.jobCount + 10)
        #expect(jobs.count == Self.jobCount)
        var completed = 0
        for job in jobs {
            #expect(job.state.isFinal, "job \(job.id) ended \(job.state)")
            #expect(job.attempts <= job.maxAttempts)
            let finishes = try await queue.attempts(of: job.id).filter { attempt in
                attempt.outcome.flatMap(JobState.init(rawValue:))?.isFinal == true
            }
            #expect(finishes.count == 1, "job \(job.id) was finished \(finishes.count) times")
            #expect(finishes.first?.outcome == job.state.rawValue)
            if job.state == .completed { completed += 1 }
            try checkRenditions(of: job, in: renditions)
        }
        #expect(completed >= Self.jobCount / 2)
        #expect(
            jobs.filter { $0.source.hasSuffix("truncated.jpg") }.allSatisfy { $0.state == .unreadable })
        #expect(jobs.filter { $0.source.hasSuffix(".pdf") }.allSatisfy { $0.state == .failed })
        try checkNoPartialFiles(in: renditions, jobs: jobs)
    }

    /// Each rendition a completed job reports is on disk, whole: same size and SHA-256.
    private func checkRenditions(of job: Job, in root: String) throws {
        for (name, rendition) in job.metadata?.renditions ?? [:] {
            let bytes = try #require(
                FileManager.default.contents(atPath: "\(root)/\(rendition.key)"), "\(name)")
            #expect(bytes.count == rendition.size)
            #expect(SHA256.hex([UInt8](bytes)) == rendition.checksumSha256)
        }
    }

    /// Every file in the store is a reported rendition, and no unfinished file of a dead writer is left.
    private func checkNoPartialFiles(in root: String, jobs: [Job]) throws {
        let keys = Set(jobs.flatMap { $0.metadata?.renditions?.values.map(\.key) ?? [] })
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "\(root)/\(relative)", isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            if relative.hasPrefix(".tmp/") {
                let pid = Int32(relative.dropFirst(5).prefix { $0 != "-" }) ?? 0
                #expect(kill(pid, 0) == 0, "\(relative) was left by a dead writer")
            } else {
                #expect(keys.contains(relative), "\(relative) is not a reported rendition")
            }
        }
    }

    private static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.variantd)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
