import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore
@testable import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// What the tests that break things under `variantd work` processes share: a bucket declaration, the work
/// command line, jobs of every kind of source, workers started (and started again) as systemd would, and
/// the checks of what they left: every job final, finished once by the attempt log, its renditions whole.
struct ChaosWorkload {
    static let sources = [
        "pictures/gradient.jpg", "pictures/gradient-alpha.png", "pictures/gradient.gif",
        "pictures/gradient.webp",
        "pictures/orientation-6.jpg", "pictures/rgb-29x100.heif", "pictures/hopper.avif",
        "pictures/truncated.jpg",
        "other/document.pdf",
    ]

    /// The `variantd work` command line, short leases and polls so that an outage is seen within seconds.
    let arguments: [String]
    /// The rendition store's folder.
    let renditions: String

    /// Declares the `chaos` bucket in `directory`, beside which the renditions are stored.
    init(queue location: String, in directory: URL) throws {
        let buckets = directory.appendingPathComponent("buckets")
        renditions = directory.appendingPathComponent("renditions").path
        try FileManager.default.createDirectory(at: buckets, withIntermediateDirectories: true)
        try """
        { "name": "chaos", "allowedMimeTypes": ["image/*"],
          "variants": { "thumb": { "width": 48, "height": 48, "fit": "cover", "format": "webp" } } }
        """.write(to: buckets.appendingPathComponent("chaos.json"), atomically: true, encoding: .utf8)
        arguments = [
            "work", "--queue", location, "--root", TestPaths.samples.path, "--buckets", buckets.path,
            "--out",
            renditions, "--workers", "2", "--lease", "2", "--poll", "1", "--backoff-ms", "20",
            "--until-idle",
        ]
    }

    /// Enqueues `count` jobs, cycling through the sources.
    func enqueue(_ count: Int, into queue: any JobQueue) async throws {
        for index in 0..<count {
            let request = ObjectRequest(bucket: "chaos", path: "object-\(index)")
            _ = try await queue.enqueue(
                try NewJob(request: request, source: Self.sources[index % Self.sources.count]))
        }
    }

    func startWorker() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.variantd)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Watches `workers` until every job of `queue` is final or `limit` passes, starting again each one that
    /// gave up (exited non-zero), as systemd would; then stops them. Returns whether every job ended final
    /// and how many workers were started again.
    func superviseUntilFinal(_ workers: [Process], queue: any JobQueue, within limit: Duration) async throws
        -> (finished: Bool, restarted: Int)
    {
        var workers = workers
        var restarted = 0
        let deadline = ContinuousClock.now + limit
        var finished = false
        while !finished, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            for index in workers.indices where !workers[index].isRunning {
                if workers[index].terminationStatus == 0 { continue }
                workers[index] = try startWorker()
                restarted += 1
            }
            let counts = (try? await queue.stateCounts()) ?? [:]
            finished = !counts.isEmpty && counts.filter { !$0.key.isFinal }.values.reduce(0, +) == 0
        }
        for worker in workers where worker.isRunning {
            kill(worker.processIdentifier, SIGTERM)
            worker.waitUntilExit()
        }
        return (finished, restarted)
    }

    /// Checks that `queue` holds `count` jobs, each final and finished exactly once by its attempt log, that
    /// the store holds their renditions whole and nothing else; returns the jobs.
    @discardableResult
    func checkEveryJobFinishedOnce(in queue: any JobQueue, count: Int) async throws -> [Job] {
        let jobs = try await queue.jobs(in: nil, limit: count + 10)
        #expect(jobs.count == count)
        for job in jobs {
            #expect(job.state.isFinal, "job \(job.id) ended \(job.state)")
            #expect(job.attempts <= job.maxAttempts)
            let finishes = try await queue.finalAttempts(of: job.id)
            #expect(finishes.count == 1, "job \(job.id) was finished \(finishes.count) times")
            #expect(finishes.first?.outcome == job.state.rawValue)
            try job.checkRenditionsWhole(in: renditions)
        }
        try checkNoPartialFiles(jobs: jobs)
        return jobs
    }

    /// Every file in the store is a reported rendition, and no unfinished file of a dead writer is left.
    private func checkNoPartialFiles(jobs: [Job]) throws {
        let keys = Set(jobs.flatMap { $0.metadata?.renditions?.values.map(\.key) ?? [] })
        let enumerator = try #require(FileManager.default.enumerator(atPath: renditions))
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard
                FileManager.default.fileExists(
                    atPath: "\(renditions)/\(relative)", isDirectory: &isDirectory),
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
}
