import Foundation
import Testing
import VariantdTestSupport

/// The daemon over a rendition store on a size-limited tmpfs, filled, emptied, remounted read-only and
/// writable again mid-run: every render sent during a fault is refused with a typed answer, `/readyz` says
/// why the store cannot take writes, `/metrics` counts the failed writes by errno, and once the fault ends
/// readiness comes back by itself (a probe, no write needed) and every render sent after it is made once.
@Suite struct ServeWriteFaultsTests {
    private static let gradient = "/v1/render/pics/2026/gradient.jpg"

    private func readiness(_ daemon: DaemonProcess) throws -> (status: Int, body: [String: Any]) {
        let reply = try daemon.send("GET", "/readyz")
        return (reply.status, reply.json)
    }

    /// Polls `/readyz` until it answers 200, for at most 20 s (the probe runs every 2 s).
    private func waitUntilReady(_ daemon: DaemonProcess) throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try readiness(daemon).status == 200 { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullThenReadOnlyStoreIsRefusedTypedAndRecoversByItself() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let disk = try SizedTmpfs(at: fixture.out.path, bytes: 4 << 20)
        defer { disk.unmount() }
        // The quarantine beside the store holds its SQLite files open, and a tmpfs in use is not remounted.
        let daemon = try fixture.start([
            "--quarantine", fixture.directory.appendingPathComponent("quarantine.sqlite3").path,
        ])
        var made = 0
        var refused: [String: Int] = [:]
        func render(width: Int) throws -> RenderAnswer {
            let answer = try daemon.render(Self.gradient + "?width=\(width)&format=webp")
            if answer.status == 200 {
                made += 1
            } else {
                refused[answer.error ?? "\(answer.status)", default: 0] += 1
            }
            return answer
        }
        #expect(try render(width: 100).status == 200)
        #expect(try readiness(daemon).status == 200)

        disk.fill()
        for width in 101...103 {
            let answer = try render(width: width)
            #expect(answer.status == 507 && answer.error == "insufficient_storage", "\(answer.json)")
        }
        let full = try readiness(daemon)
        #expect(full.status == 503 && full.body["status"] as? String == "store_full", "\(full.body)")
        #expect(full.body["place"] as? String == "rendition_store")
        #expect(
            try daemon.metric(line: #"variantd_write_failures_total{place="rendition_store",errno="ENOSPC"}"#)
                == 3)
        #expect(try daemon.metric(line: #"variantd_write_blocked{place="rendition_store"}"#) == 1)

        disk.empty()
        #expect(try waitUntilReady(daemon), "a probe finds the room back without a write")
        #expect(try daemon.metric(line: #"variantd_write_blocked{place="rendition_store"}"#) == 0)
        for width in 101...103 {
            #expect(try render(width: width).status == 200, "a render refused for the full disk is made now")
        }

        try disk.remount(readOnly: true)
        for width in 104...105 {
            let answer = try render(width: width)
            #expect(answer.status == 503 && answer.error == "transform_busy", "\(answer.json)")
            #expect(answer.headers["retry-after"] != nil)
        }
        let readOnly = try readiness(daemon)
        #expect(readOnly.status == 503 && readOnly.body["status"] as? String == "store_read_only")
        #expect(
            try daemon.metric(line: #"variantd_write_failures_total{place="rendition_store",errno="EROFS"}"#)
                == 2)

        try disk.remount(readOnly: false)
        #expect(try waitUntilReady(daemon), "writable again: ready without a write")
        for width in 104...105 {
            #expect(try render(width: width).status == 200)
        }
        // Every render accounted for: made once, or refused with a typed answer during the faults.
        #expect(
            made == 1 + 3 + 2 && refused == ["insufficient_storage": 3, "transform_busy": 2], "\(refused)")
        let rendered = try daemon.metric(line: "variantd_renders_total")
        for width in 100...105 {
            #expect(try daemon.render(Self.gradient + "?width=\(width)&format=webp").status == 200)
        }
        #expect(
            try daemon.metric(line: "variantd_renders_total") == rendered,
            "each one stored: served, not made again")
    }

    /// The SQLite queue on a full tmpfs: jobs sent while it is full are refused `503 transform_busy` with
    /// `Retry-After` (none half-committed), `/readyz` says `store_full` at the queue, a probe makes the
    /// daemon ready again once there is room, and every job accepted before and after is rendered once.
    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullQueueRefusesJobsTypedAndLosesNone() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let disk = try SizedTmpfs(at: fixture.directory.appendingPathComponent("queue").path, bytes: 4 << 20)
        defer { disk.unmount() }
        let queue = "sqlite:" + disk.path + "/queue.sqlite3"
        let daemon = try fixture.start(["--queue", queue])
        let body = Array(try JSONSerialization.data(withJSONObject: ServeFixture.job("up/gradient.jpg")))
        func send(version: Int) throws -> Int {
            let reply = try daemon.send("POST", "/v1/jobs?async=1&version=\(version)", body: body)
            if reply.status == 503 {
                #expect(reply.error == "transform_busy" && reply.retryAfter == "5", "\(reply.text)")
            }
            return reply.status
        }
        var accepted: Set<Int> = []
        if try send(version: 0) == 202 { accepted.insert(0) }

        disk.fill()
        for version in 1...3 {
            #expect(try send(version: version) == 503, "a full queue refuses job \(version)")
        }
        let full = try readiness(daemon)
        #expect(full.status == 503 && full.body["status"] as? String == "store_full", "\(full.body)")
        #expect(full.body["place"] as? String == "queue")
        #expect(try daemon.metric(line: #"variantd_write_failures_total{place="queue",errno="ENOSPC"}"#) >= 3)

        disk.empty()
        #expect(try waitUntilReady(daemon))
        for version in 1...3 where try send(version: version) == 202 { accepted.insert(version) }
        #expect(accepted == [0, 1, 2, 3])

        let work = try await VariantdProcess.run([
            "work", "--queue", queue, "--root", fixture.root.path, "--buckets", fixture.buckets.path, "--out",
            fixture.out.path, "--until-idle",
        ])
        #expect(work.status == 0, "\(work.stderr)")
        let jobs = try await VariantdProcess.run(["jobs", "--queue", queue])
        let lines = jobs.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count == 4, "one job per accepted version, none from a refused one: \(jobs.stdout)")
        #expect(lines.allSatisfy { $0["state"] as? String == "completed" }, "\(jobs.stdout)")
        #expect(Set(lines.compactMap { $0["version"] as? String }) == ["0", "1", "2", "3"])
    }

    /// The daemon's stderr on a full tmpfs: renders are answered as ever, the access lines that cannot be
    /// written are counted (`access_log`, `ENOSPC`), readiness does not follow a log, and lines are written
    /// again once there is room.
    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullLogDiskLosesLinesNotAnswers() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let disk = try SizedTmpfs(at: fixture.directory.appendingPathComponent("log").path, bytes: 1 << 20)
        defer { disk.unmount() }
        // The daemon's stderr is the fixture's daemon.log: a link puts it on the tmpfs.
        try FileManager.default.createSymbolicLink(
            atPath: fixture.directory.appendingPathComponent("daemon.log").path,
            withDestinationPath: disk.path + "/daemon.log")
        let daemon = try fixture.start()
        disk.fill()
        // More lines than the last page of the log file has room for: hits, cheap to answer.
        for _ in 1...60 {
            let answer = try daemon.render(Self.gradient + "?width=100&format=webp")
            #expect(answer.status == 200, "\(answer.json)")
        }
        // The access lines leave in batches every 100 ms: wait for one to have failed.
        let deadline = ContinuousClock.now + .seconds(10)
        var lost = 0.0
        while lost == 0, ContinuousClock.now < deadline {
            lost = try daemon.metric(
                line: #"variantd_write_failures_total{place="access_log",errno="ENOSPC"}"#)
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(lost >= 1)
        #expect(try readiness(daemon).status == 200, "a lost log line fails no answer")

        disk.empty()
        // Two: the first may follow the torn end of a batch the full disk cut.
        for width in 110...111 {
            #expect(try daemon.render(Self.gradient + "?width=\(width)&format=webp").status == 200)
        }
        let written = ContinuousClock.now + .seconds(10)
        while !daemon.log.contains(where: { $0["event"] as? String == "render" }),
            ContinuousClock.now < written
        {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(daemon.log.contains { $0["event"] as? String == "render" }, "lines are written again")
    }

    /// A read-only rendition store or data folder at start: `serve` and `work` stop at once with exit
    /// status 74 and a line that names the folder and says it is read-only, and never listen.
    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aReadOnlyStoreOrDataFolderStopsTheStartWithAClearError() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let store = try SizedTmpfs(
            at: fixture.directory.appendingPathComponent("ro-store").path, bytes: 1 << 20)
        defer { store.unmount() }
        let data = try SizedTmpfs(
            at: fixture.directory.appendingPathComponent("ro-data").path, bytes: 1 << 20)
        defer { data.unmount() }
        try store.remount(readOnly: true)
        try data.remount(readOnly: true)
        let common = ["--root", fixture.root.path, "--buckets", fixture.buckets.path]
        let environment = ["VARIANTD_SECRET": DaemonProcess.secret]
        let cases: [(arguments: [String], data: String, says: String)] = [
            (
                ["serve", "--listen", "127.0.0.1:0", "--out", store.path], fixture.directory.path + "/data",
                "The rendition store cannot be used: the rendition store \(store.path) cannot be created: "
                    + "\(store.path)/.tmp: Read-only file system"
            ),
            (
                ["serve", "--listen", "127.0.0.1:0", "--out", fixture.out.path], data.path,
                "The job queue cannot be opened: SQLite cannot open \(data.path)/queue.sqlite3: unable to open "
                    + "database file (the file system is read-only)"
            ),
            (
                ["work", "--out", fixture.out.path], data.path,
                "The quarantine file cannot be opened: SQLite cannot open \(data.path)/quarantine.sqlite3"
            ),
        ]
        for (arguments, folder, says) in cases {
            let run = try await VariantdProcess.run(
                arguments + common, environment: environment.merging(["VARIANTD_DATA_DIR": folder]) { $1 })
            #expect(run.status == 74, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("Error: " + says), "\(run.stderr)")
            #expect(!run.stderr.contains("Usage:") && !run.stderr.contains("listening"))
        }
    }
}
