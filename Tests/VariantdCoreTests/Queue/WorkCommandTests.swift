import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd work` as a process: signed, retried callbacks, and a clean exit on SIGTERM.
@Suite struct WorkCommandTests {

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"
        ))
    func postsSignedRetriedCallbacks() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("requests.jsonl").path
        let receiver = try ScriptedServer(ScriptedServer.receiver(failingFirst: true), arguments: [log])
        defer { receiver.stop() }
        let port = receiver.port
        let secretFile = directory.appendingPathComponent("secret").path
        try "s3cret\n".write(toFile: secretFile, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        let id = try await queue.enqueue(
            try NewJob(
                request: ObjectRequest(bucket: "post-images", path: "g.jpg"),
                source: "pictures/gradient.jpg")
        ).id

        let status = try run([
            "work", "--queue", "sqlite:\(path)", "--root", TestPaths.samples.path, "--buckets",
            TestPaths.samples.appendingPathComponent("buckets").path, "--out",
            directory.appendingPathComponent("r").path,
            "--workers", "1", "--until-idle", "--callback", "http://127.0.0.1:\(port)/done",
            "--callback-secret-file", secretFile,
        ])
        #expect(status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let last = try #require(
            try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Any])
        let headers = try #require(last["headers"] as? [String: String])
        let body = try #require(last["body"] as? String)
        let timestamp = try #require(headers["Variantd-Timestamp"])
        let expected = HMAC.sha256Hex(
            key: Array("s3cret".utf8), message: Array("\(timestamp).\(body)".utf8))
        #expect(headers["Variantd-Signature"] == "sha256=\(expected)")
        #expect(headers["Idempotency-Key"] == "variantd-job-\(id)")
        let job = try WireJSON.decode(Job.self, from: body.utf8)
        #expect(job.id == id && job.state == .completed && job.metadata?.width == 320)
        #expect(try await queue.job(id: id)?.reportedAt != nil)
    }

    /// Reports left over by a worker that died are retried beside the claim loop, never in it: with the
    /// receiver down each one takes its tries and backoff (7.5 s, 45 s for these six), and a new job must not
    /// wait behind them, nor a SIGTERM. The worker's own lines tell, in the order it printed them: a new job
    /// enqueued once the sweep has given up on one report is done, and the stop made, before all six are.
    /// Nothing awaits between the worker's lines and the test's answers to them, so a cooperative pool held by
    /// other tests cannot let the sweep run on meanwhile.
    @Test func anUnreachableCallbackHoldsUpNeitherNewJobsNorTheStop() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        for index in 0..<6 {
            _ = try await queue.enqueue(
                try NewJob(
                    request: ObjectRequest(bucket: "b", path: "old\(index).jpg"), source: "missing.jpg"))
        }
        for claimed in try await queue.claim(owner: "gone", limit: 6, lease: .seconds(60)) {
            _ = try await queue.finish(claimed.lease, with: .failure(VariantsError(.notFound, "gone")))
        }
        // Final and unreported long past the sweep age, as a worker that died before its callbacks leaves them.
        try SQLiteConnection(path: path).execute(
            "UPDATE variantd_jobs SET finished_at = finished_at - 600000")
        let port = try #require(try LoopbackPorts.free(1).first)
        let worker = try VariantdProcess([
            "work", "--queue", "sqlite:\(path)", "--root", TestPaths.samples.path, "--buckets",
            directory.path, "--out", directory.appendingPathComponent("r").path, "--workers", "1",
            "--callback", "http://127.0.0.1:\(port)/done",
        ])
        try #require(worker.waitUntilPrinted(#""event":"callback_failed""#), "\(worker.printed)")
        let enqueue = try VariantdProcess([
            "enqueue", "--queue", "sqlite:\(path)", "--bucket", "b", "--path", "pictures/gradient.jpg",
        ])
        try #require(worker.waitUntilPrinted(#""state":"completed""#), "\(worker.printed)")
        worker.signal(SIGTERM)
        let added = try await enqueue.finish(within: .seconds(120))
        let finished = try await worker.finish(within: .seconds(120))
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])?["id"] as? Int
        )
        let events = finished.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let oldReportsGivenUp = events.filter {
            $0["event"] as? String == "callback_failed" && $0["job"] as? Int != id
        }
        let done = try #require(events.firstIndex { $0["job"] as? Int == id && $0["state"] != nil })
        let givenUpBefore = events[..<done].filter { $0["event"] as? String == "callback_failed" }
        #expect(givenUpBefore.count < 6, "the new job waited behind the old reports")
        // The new job's own report may still have been trying at the stop; the old ones left are dropped.
        #expect(oldReportsGivenUp.count < 6, "the stop waited behind the old reports")
    }

    /// A full rendition store is the host's fault, not the jobs': a worker waits it out under the lease,
    /// logging `insufficient_storage`, and once there is room every job completes on its first attempt.
    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullRenditionStoreIsWaitedOutWithoutSpendingAttempts() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try SizedTmpfs(at: directory.appendingPathComponent("r").path, bytes: 2 << 20)
        defer { disk.unmount() }
        try Data(#"{"name": "b", "variants": {"thumb": {"width": 40, "height": 40}}}"#.utf8)
            .write(to: directory.appendingPathComponent("b.json"))
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        let ids = try await (0..<3).asyncMap { index in
            try await queue.enqueue(
                try NewJob(
                    request: ObjectRequest(bucket: "b", path: "p\(index).jpg"),
                    source: "pictures/gradient.jpg")
            ).id
        }
        disk.fill()
        let worker = try VariantdProcess([
            "work", "--queue", "sqlite:\(path)", "--root", TestPaths.samples.path, "--buckets",
            directory.path,
            "--out", disk.path, "--workers", "2", "--until-idle",
        ])
        try #require(worker.waitUntilPrinted(#""event":"insufficient_storage""#), "\(worker.printed)")
        disk.empty()
        let finished = try await worker.finish(within: .seconds(120))
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        let jobs = try await queue.jobs(in: nil, limit: 10)
        #expect(jobs.map(\.id).sorted() == ids.sorted())
        for job in jobs {
            #expect(
                job.state == .completed && job.attempts == 1, "\(job.state) after \(job.attempts) attempts")
            let thumb = try #require(job.metadata?.renditions?["thumb"])
            #expect(FileManager.default.contents(atPath: disk.path + "/" + thumb.key)?.count == thumb.size)
        }
    }

    @Test func stopsCleanlyOnSIGTERM() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: TestPaths.variantd)
        worker.arguments = [
            "work", "--queue", "sqlite:\(path)", "--root", TestPaths.samples.path, "--buckets",
            directory.path,
            "--out", directory.appendingPathComponent("r").path, "--workers", "2",
        ]
        worker.standardOutput = FileHandle.nullDevice
        try worker.run()
        let ids = try await (0..<4).asyncMap { index in
            try await queue.enqueue(
                try NewJob(
                    request: ObjectRequest(bucket: "b", path: "p\(index).jpg"),
                    source: "pictures/gradient.jpg")
            ).id
        }
        for _ in 0..<300 {
            if try await queue.jobs(in: .completed, limit: 10).count == ids.count { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await queue.jobs(in: .completed, limit: 10).map(\.id) == ids)
        kill(worker.processIdentifier, SIGTERM)
        for _ in 0..<100 where worker.isRunning { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!worker.isRunning)
        if worker.isRunning { worker.terminate() }
        worker.waitUntilExit()
        #expect(worker.terminationReason == .exit && worker.terminationStatus == 0)
    }

    private func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.variantd)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
