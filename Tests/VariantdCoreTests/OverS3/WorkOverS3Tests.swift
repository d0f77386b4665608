import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore
@testable import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd work` processes that share nothing on disk — separate data folders, one PostgreSQL queue, one
/// SeaweedFS holding the sources and the renditions — as workers on two machines would.
@Suite(
    .serialized, .postgresServer, .seaweedServer,
    .enabled(if: PostgresServer.isAvailable, "PostgreSQL binaries are absent; run scripts/setup.sh"),
    .seaweedInstalled
)
struct WorkOverS3Tests {
    static let pictures = [
        "gradient.jpg", "gradient-alpha.png", "gradient.webp", "orientation-6.jpg", "hopper.avif",
        "rgb-29x100.heif",
    ]

    /// A bucket holding the sample pictures under `objects/`, a queue holding `count` jobs for them, and a
    /// bucket declaration folder.
    private struct Setup {
        let bucket: String
        let queueURL: String
        let queue: any JobQueue
        let directory: URL

        init(jobs count: Int) async throws {
            let server = try #require(SeaweedServer.current)
            bucket = try server.freshBucket()
            let client = try server.client()
            for name in WorkOverS3Tests.pictures {
                let bytes = try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/\(name)"))
                try client.put(
                    bucket: bucket, key: "objects/\(name)", bytes: [UInt8](bytes), contentType: "image/*")
            }
            queueURL = try #require(PostgresServer.current).freshDatabase()
            queue = try await PostgresQueue(url: queueURL)
            directory = try TestPaths.temporaryDirectory()
            let buckets = directory.appendingPathComponent("buckets")
            try FileManager.default.createDirectory(at: buckets, withIntermediateDirectories: true)
            try """
            { "name": "shared", "allowedMimeTypes": ["image/*"],
              "variants": { "thumb": { "width": 48, "height": 48, "fit": "cover", "format": "webp" },
                            "large": { "width": 200, "format": "jpeg" } } }
            """.write(to: buckets.appendingPathComponent("shared.json"), atomically: true, encoding: .utf8)
            for index in 0..<count {
                let name = WorkOverS3Tests.pictures[index % WorkOverS3Tests.pictures.count]
                let request = ObjectRequest(bucket: "shared", path: "uploads/\(index)/\(name)")
                _ = try await queue.enqueue(try NewJob(request: request, source: name))
            }
        }

        /// A worker with a data folder of its own.
        func worker(_ name: String) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestPaths.variantd)
            process.arguments = [
                "work", "--queue", queueURL, "--data-dir", directory.appendingPathComponent(name).path,
                "--root", "s3://\(bucket)/objects", "--out", "s3://\(bucket)/renditions", "--buckets",
                directory.appendingPathComponent("buckets").path, "--workers", "2", "--poll", "1",
                "--backoff-ms", "20", "--until-idle",
            ]
            process.environment = ProcessInfo.processInfo.environment.merging(
                try #require(SeaweedServer.current).environment()
            ) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// Waits for the workers to exit, then checks that every job completed and that every rendition its
        /// result names is in the store, whole (size and SHA-256 as reported).
        func check(_ workers: [Process], jobs count: Int) async throws -> [Job] {
            let deadline = ContinuousClock.now + .seconds(180)
            while workers.contains(where: \.isRunning), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
            for worker in workers where worker.isRunning {
                Issue.record("a worker did not finish within 180 s")
                kill(worker.processIdentifier, SIGKILL)
                worker.waitUntilExit()
            }
            for worker in workers { #expect(worker.terminationStatus == 0) }
            let client = try #require(SeaweedServer.current).client()
            let jobs = try await queue.jobs(in: nil, limit: count + 10)
            #expect(jobs.count == count)
            for job in jobs {
                #expect(
                    job.state == .completed, "job \(job.id): \(job.state) \(job.error?.description ?? "")")
                let renditions = job.metadata?.renditions ?? [:]
                #expect(renditions.count == 2)
                for (name, rendition) in renditions {
                    let bytes = try client.read(
                        bucket: bucket, key: "renditions/\(rendition.key)", maxBytes: rendition.size)
                    #expect(bytes.count == rendition.size, "\(name)")
                    #expect(SHA256.hex(bytes) == rendition.checksumSha256, "\(name)")
                }
            }
            return jobs
        }
    }

    @Test func twoWorkersShareOnlyTheQueueAndTheStore() async throws {
        let setup = try await Setup(jobs: 24)
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let workers = try [setup.worker("machine-a"), setup.worker("machine-b")]
        _ = try await setup.check(workers, jobs: 24)
        for machine in ["machine-a", "machine-b"] {
            let renditions = setup.directory.appendingPathComponent("\(machine)/renditions").path
            let files = (try? FileManager.default.subpathsOfDirectory(atPath: renditions)) ?? []
            #expect(files.allSatisfy { $0.hasPrefix(".tmp") }, "\(machine) wrote renditions to its own disk")
        }
    }

    @Test func jobsWaitOutAStoreKilledMidRunWithoutSpendingAttempts() async throws {
        let server = try #require(SeaweedServer.current)
        let setup = try await Setup(jobs: 48)
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        let watcher = try PostgresConnection(url: setup.queueURL)
        let workers = try [setup.worker("machine-a"), setup.worker("machine-b")]
        // Watched on this thread, never awaited: a cooperative pool held by other suites would let the
        // workers finish every job before the store goes away.
        let deadline = ContinuousClock.now + .seconds(120)
        while try watcher.query("SELECT count(*) FROM variantd_jobs WHERE state = 'completed'").first?[0]
            .flatMap({ Int($0) }) ?? 0 < 3, ContinuousClock.now < deadline
        {
            usleep(20_000)
        }
        server.kill()
        let doneBeforeTheOutage = try await setup.queue.jobs(in: .completed, limit: 100).count
        #expect(doneBeforeTheOutage < 48, "the store went away after the run")
        try await Task.sleep(for: .seconds(2))
        try server.start()
        let jobs = try await setup.check(workers, jobs: 48)
        #expect(jobs.allSatisfy { $0.attempts == 1 }, "\(jobs.map(\.attempts))")
    }
}
