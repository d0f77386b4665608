import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// What a soak runs on: a store of sample pictures, a rendition store on a 64 MiB tmpfs, one queue
/// (PostgreSQL when the suite has a server, else SQLite) shared by `serve` (with a worker of its own) and a
/// supervised `work`, and one quarantine file for both.
final class SoakSite: @unchecked Sendable {
    let fixture: ServeFixture
    let disk: SizedTmpfs
    let database: PostgresServer?
    let queue: any JobQueue
    let serve: DaemonProcess
    let worker: WorkerSupervisor

    init() async throws {
        fixture = try ServeFixture()
        try fixture.addRenderBuckets()
        let folder = fixture.root.appendingPathComponent(SoakLoad.folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for picture in SoakLoad.pictures {
            try FileManager.default.copyItem(
                at: TestPaths.samples.appendingPathComponent("pictures/" + picture),
                to: folder.appendingPathComponent(picture))
        }
        disk = try SizedTmpfs(at: fixture.out.path, bytes: 64 << 20)
        database = PostgresServer.current
        let location: String
        if let database {
            location = try database.freshDatabase()
            queue = try await PostgresQueue(url: location)
        } else {
            let path = fixture.directory.appendingPathComponent("queue.sqlite3").path
            location = "sqlite:" + path
            queue = try await SQLiteQueue(path: path)
        }
        let quarantine = fixture.directory.appendingPathComponent("quarantine.sqlite3").path
        serve = try fixture.start([
            "--queue", location, "--workers", "1", "--slots", "2", "--quarantine", quarantine,
            "--on-demand-budget", "\(4 << 20)",
        ])
        worker = try WorkerSupervisor(
            [
                "--queue", location, "--root", fixture.root.path, "--buckets", fixture.buckets.path, "--out",
                fixture.out.path, "--quarantine", quarantine, "--workers", "2", "--lease", "10", "--poll",
                "1",
                "--backoff-ms", "100", "--listen", "127.0.0.1:0",
            ], directory: fixture.directory)
    }

    func remove() {
        worker.stop()
        serve.kill()
        disk.unmount()
        fixture.remove()
    }

    /// Waits (at most 60 s) until `serve` and the current `work` run both answer `/readyz` with 200.
    func waitUntilReady() async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try serve.send("GET", "/readyz").status == 200,
                try worker.current.send("GET", "/readyz").status == 200
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        return false
    }

    /// Waits (at most 5 minutes) until no job of the queue is waiting, running or scheduled again.
    func waitUntilDrained() async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            _ = try worker.reviveIfEnded()
            if let counts = try? await queue.stateCounts(),
                counts.filter({ !$0.key.isFinal }).values.reduce(0, +) == 0
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        return false
    }

    /// A good picture, once the faults are over: its upload's job is done and an on-demand render served,
    /// so no fault of the host left it quarantined.
    func checkServed(_ picture: String) throws {
        let reply = try serve.job([
            "id": "after-\(picture)", "bucket": "post-images", "path": "photos/after-\(picture)",
            "source": "\(SoakLoad.folder)/\(picture)",
        ])
        #expect(reply.status == 200, "\(picture): \(reply.text)")
        let render = try serve.render("/v1/render/\(SoakLoad.folder)/\(picture)?width=101&format=webp")
        #expect(
            render.status == 200, "\(picture): \(String(decoding: render.body.prefix(300), as: UTF8.self))")
    }

    /// Every job the daemon accepted is in the queue and final, finished exactly once by the attempt log: a
    /// good picture's completed with its renditions whole on disk, the broken one's unreadable. The queue
    /// holds no job besides them.
    func checkJobs(_ accepted: [SoakLedger.AcceptedJob]) async throws {
        let jobs = try await queue.jobs(in: nil, limit: accepted.count + 100)
        #expect(jobs.count == Set(accepted.map(\.id)).count, "the queue holds exactly the accepted jobs")
        let byID = Dictionary(jobs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for expected in accepted {
            guard let job = byID[expected.id] else {
                Issue.record("accepted job \(expected.id) (\(expected.source)) is not in the queue")
                continue
            }
            let state: JobState = expected.source == SoakLoad.brokenPicture ? .unreadable : .completed
            #expect(
                job.state == state,
                "job \(job.id) of \(expected.source): \(job.state) \(String(describing: job.error))")
            let finishes = try await queue.finalAttempts(of: job.id)
            #expect(finishes.count == 1, "job \(job.id) was finished \(finishes.count) times")
            try job.checkRenditionsWhole(in: fixture.out.path)
        }
    }

    /// No file of an unfinished write is left in the store, and the store is writable again.
    func checkNoPartialFiles() throws {
        let temporary = fixture.out.path + "/.tmp"
        let left = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        #expect(left.isEmpty, "unfinished writes left in \(temporary): \(left)")
    }
}
