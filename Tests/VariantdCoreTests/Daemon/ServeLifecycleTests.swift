import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// Admission under a flood, graceful drain on SIGTERM, reload on SIGHUP, the Unix socket, health and
/// metrics: the daemon as a process, over real HTTP (curl).
@Suite struct ServeLifecycleTests {
    @Test func aFloodBeyondSlotsAndQueueIsRefusedAtOnceWithRetryAfter() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.makeLargePicture()
        let daemon = try fixture.start(["--slots", "1", "--queue-depth", "1"])
        let calls = try (0..<12).map { index in
            try daemon.start(
                "POST", "/v1/jobs",
                body: Array(
                    try JSONSerialization.data(
                        withJSONObject: ServeFixture.job("up/large.jpg", id: "f\(index)"))))
        }
        let replies = try calls.map { try $0.finish() }
        let busy = replies.filter { $0.status == 503 }
        #expect(replies.allSatisfy { $0.status == 200 || $0.status == 503 }, "\(replies.map(\.status))")
        #expect(!busy.isEmpty)
        #expect(replies.contains { $0.status == 200 })
        for reply in busy {
            #expect(reply.error == "transform_busy")
            #expect((Int(reply.retryAfter) ?? 0) >= 1, "Retry-After '\(reply.retryAfter)'")
        }
        let refused = try daemon.send("GET", "/metrics").text
        #expect(
            refused.contains(
                "variantd_jobs_total{outcome=\"rejected\",code=\"transform_busy\"} \(busy.count)"))
        #expect(try daemon.metric("variantd_queue_depth") == 0)
    }

    /// A daemon of one slot with `--grace` seconds to drain, and `count` jobs of large pictures posted to it,
    /// returned once one of them waits behind the one running (or after 120 s, however loaded the machine):
    /// a stop then finds both.
    private func jobsRunningAndWaiting(_ count: Int, grace: Int, in fixture: ServeFixture) throws
        -> (daemon: DaemonProcess, calls: [DaemonProcess.Call])
    {
        for index in 0..<count { try fixture.makeLargePicture(named: "large-\(index).jpg") }
        let daemon = try fixture.start(["--slots", "1", "--queue-depth", "4", "--grace", "\(grace)"])
        let calls = try (0..<count).map { index in
            try daemon.start(
                "POST", "/v1/jobs",
                body: Array(
                    try JSONSerialization.data(
                        withJSONObject: ServeFixture.job("up/large-\(index).jpg", id: "d\(index)"))))
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while try (daemon.metric("variantd_queue_depth") ?? 0) < 1, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        return (daemon, calls)
    }

    /// A host's default soft limit of 1024 descriptors is lifted to the hard one at start.
    @Test func theDescriptorLimitIsLiftedToTheHardOne() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(launcher: ["/usr/bin/prlimit", "--nofile=1024:4096"])
        let limits = try String(
            contentsOfFile: "/proc/\(daemon.process.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers == [4096, 4096], "\(line)")
    }

    @Test func sigtermLetsJobsInFlightFinishAndExitsZero() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (daemon, calls) = try jobsRunningAndWaiting(3, grace: 60, in: fixture)
        #expect(try (daemon.metric("variantd_queue_depth") ?? 0) >= 1, "no job was waiting at SIGTERM")
        daemon.signal(SIGTERM)
        let replies = try calls.map { try $0.finish() }
        #expect(replies.map(\.status) == [200, 200, 200])
        #expect(daemon.waitForExit() == 0)
        let temporary = try FileManager.default.contentsOfDirectory(atPath: fixture.out.path + "/.tmp")
        #expect(temporary.isEmpty)
        for reply in replies {
            let metadata = try WireJSON.decode(CompletionMetadata.self, from: reply.body)
            for rendition in (metadata.renditions ?? [:]).values {
                #expect(FileManager.default.fileExists(atPath: fixture.out.path + "/" + rendition.key))
            }
        }
        #expect(daemon.log.contains { $0["event"] as? String == "draining" })
        #expect(daemon.log.last?["event"] as? String == "stopped")
    }

    /// libmicrohttpd aborts a process that stops it while a connection waits for its answer: the daemon
    /// whose grace period ended first must still exit 1, not die of SIGABRT with a crash report.
    @Test func aGracePeriodThatEndsFirstExitsOne() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (daemon, calls) = try jobsRunningAndWaiting(2, grace: 0, in: fixture)
        defer { daemon.kill() }
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 1)
        for call in calls { _ = try? call.finish() }
        #expect(daemon.log.last?["event"] as? String == "stopped")
    }

    @Test func sighupReloadsBucketDeclarations() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        let job = ServeFixture.job("up/gradient.jpg", bucket: "avatars")
        #expect(try daemon.job(job).status == 404)

        let declaration = #"{ "name": "avatars", "variants": { "icon": { "width": 16, "height": 16 } } }"#
        try declaration.write(
            to: fixture.buckets.appendingPathComponent("avatars.json"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let reload = try daemon.waitForLog(event: "reload")
        #expect(reload["buckets"] as? Int == 2)
        let reply = try daemon.job(job)
        #expect(reply.status == 200)
        #expect(
            try WireJSON.decode(CompletionMetadata.self, from: reply.body).renditions?["icon"]?.width == 16)

        try "{ not json".write(
            to: fixture.buckets.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let failed = try daemon.waitForLog(event: "reload", after: 1)
        #expect(failed["error"] != nil && failed["kept"] as? Int == 2)
        #expect(try daemon.job(job).status == 200)
    }

    /// A daemon still starting, its SQLite queue held by another writer (a worker migrating it, for one),
    /// and a serve started over it with `--listen unix:`, returned once it has said it is starting (its
    /// signals are caught from then on). The lock is the test's to release; the daemon waits for it, through
    /// five tries of the queue's 10 s busy timeout. Nothing here awaits while the daemon waits: the signal is
    /// sent without waiting for a thread of the cooperative pool, which other tests may hold for as long.
    private func startingBehindALockedQueue(_ fixture: ServeFixture) throws -> (
        daemon: VariantdProcess, lock: SQLiteConnection
    ) {
        let queue = fixture.directory.appendingPathComponent("queue.sqlite3").path
        let lock = try SQLiteConnection(path: queue)
        try lock.execute("PRAGMA journal_mode=WAL; BEGIN EXCLUSIVE; CREATE TABLE held (a)")
        let socket = fixture.directory.appendingPathComponent("variantd.sock").path
        let daemon = try VariantdProcess([
            "serve", "--listen", "unix:" + socket, "--root", fixture.root.path, "--out", fixture.out.path,
            "--buckets", fixture.buckets.path, "--queue", "sqlite:" + queue,
        ])
        try #require(daemon.waitUntilPrinted(#""event":"starting""#, errors: true), "\(daemon.printedErrors)")
        return (daemon, lock)
    }

    /// `systemctl reload` right after `start` (a configuration tool's handler) sends SIGHUP while the daemon
    /// may still wait for its queue; that signal's default action ended the process, which systemd counts as
    /// a clean exit and does not restart. The reload is now kept and done once the daemon listens.
    @Test func aReloadDuringStartUpIsDoneOnceListening() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (daemon, lock) = try startingBehindALockedQueue(fixture)
        daemon.signal(SIGHUP)
        // The queue stays locked until the daemon has taken the signal: it came during start-up.
        #expect(daemon.waitUntilDelivered(SIGHUP), "SIGHUP still pending")
        try lock.execute("ROLLBACK")
        #expect(daemon.waitUntilPrinted(#""event":"listening""#, errors: true), "\(daemon.printedErrors)")
        daemon.signal(SIGTERM)
        let finished = try await daemon.finish(within: .seconds(120))
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains(#""buckets":1,"event":"reload""#), "\(finished.stderr)")
    }

    /// Catching signals from the start must not make a stop wait for a start-up that hangs.
    @Test func aStopDuringStartUpEndsTheProcessAtOnce() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let (daemon, lock) = try startingBehindALockedQueue(fixture)
        defer { try? lock.execute("ROLLBACK") }
        daemon.signal(SIGTERM)
        let finished = try await daemon.finish(within: .seconds(120))
        // The queue stays locked until the daemon has ended: had the stop waited for it, the queue's busy
        // timeout would have ended the start-up with its own error (exit 74) instead.
        #expect(finished.status == 143, "\(finished.stderr)")
    }

    @Test func unixSocketNeedsNoSecretAndIsPrivate() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let socket = fixture.directory.appendingPathComponent("variantd.sock").path
        let daemon = try DaemonProcess(
            ["--listen", "unix:" + socket, "--root", fixture.root.path, "--buckets", fixture.buckets.path],
            directory: fixture.directory, secret: false)
        let attributes = try FileManager.default.attributesOfItem(atPath: socket)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let reply = try daemon.job(ServeFixture.job("up/gradient.jpg"), authorization: nil)
        #expect(reply.status == 200)
        let metadata = try WireJSON.decode(CompletionMetadata.self, from: reply.body)
        let thumb = try #require(metadata.renditions?["thumb"])
        #expect(FileManager.default.fileExists(atPath: fixture.root.path + "/" + thumb.key))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    /// Load balancers and uptime checks probe with `HEAD`, which a server must take wherever it takes `GET`
    /// (RFC 9110 §9.1): the same status and headers, no body.
    @Test func headIsAnsweredWhereGetIs() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for path in ["/livez", "/readyz", "/metrics"] {
            let get = try daemon.send("GET", path)
            let head = try daemon.send("HEAD", path, curlOptions: ["--head"])
            #expect(head.status == 200 && head.contentType == get.contentType, "\(path): \(head.text)")
        }
    }

    /// A known path asked with a method it does not take is `405` with the `Allow` RFC 9110 §15.5.6 requires,
    /// so a client tells a wrong method from a malformed request and learns the right one.
    @Test func aWrongMethodIs405WithAllow() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        for (method, path, allow) in [
            ("POST", "/livez", "GET, HEAD"), ("DELETE", "/readyz", "GET, HEAD"),
            ("PUT", "/metrics", "GET, HEAD"),
            ("GET", "/v1/jobs", "POST"), ("GET", "/v1/render", "POST"),
            ("PUT", "/v1/render/pics/2026/gradient.jpg", "GET, HEAD"),
            ("POST", "/v1/render/pics/2026/gradient.jpg", "GET, HEAD"),
        ] {
            let reply = try daemon.send(method, path)
            #expect(
                reply.status == 405 && reply.error == "method_not_allowed", "\(method) \(path): \(reply.text)"
            )
            #expect(reply.json["statusCode"] as? Int == 405 && reply.allow == allow, "\(method) \(path)")
        }
        #expect(try daemon.send("PUT", "/v1/elsewhere").status == 404)
    }

    @Test func healthAndMetricsEndpoints() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(["--slots", "2", "--queue-depth", "3"])
        #expect(try daemon.send("GET", "/livez").json["status"] as? String == "ok")
        let ready = try daemon.send("GET", "/readyz")
        #expect(ready.status == 200 && ready.json["status"] as? String == "ready")
        #expect(try daemon.job(ServeFixture.job("up/gradient.jpg")).status == 200)
        #expect(try daemon.job(ServeFixture.job("up/truncated.jpg")).status == 422)
        let metrics = try daemon.send("GET", "/metrics")
        #expect(metrics.contentType.hasPrefix("text/plain; version=0.0.4"))
        let text = metrics.text
        for expected in [
            "variantd_jobs_total{outcome=\"ok\",code=\"ok\"} 1",
            "variantd_jobs_total{outcome=\"failed\",code=\"unreadable_picture\"} 1",
            "variantd_stage_duration_seconds_count{stage=\"write\"} 1",
            "variantd_stage_duration_seconds_bucket{stage=\"write\",le=\"+Inf\"} 1",
            "variantd_job_duration_seconds_count 2",
            "variantd_jobs_in_flight 0", "variantd_queue_depth 0", "variantd_render_slots 2",
            "variantd_queue_capacity 3", "variantd_source_bytes_total 5303",
            "variantd_decoder_crashes_total 0",
            "variantd_bucket_declarations 1", "# TYPE variantd_stage_duration_seconds histogram",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        #expect(try (daemon.metric("variantd_rendition_bytes_total") ?? 0) > 0)
        #expect(try (daemon.metric("variantd_process_resident_memory_bytes") ?? 0) > 1_000_000)
    }
}
