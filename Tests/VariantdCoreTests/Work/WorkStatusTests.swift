import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd work --listen`: health and metrics of a worker over the daemon's HTTP server.
@Suite struct WorkStatusTests {
    @Test func aListeningWorkerReportsItsQueueAndItsAttempts() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("queue.sqlite3").path
        let queue = try await SQLiteQueue(path: path)
        for (name, source) in [("g.jpg", "pictures/gradient.jpg"), ("t.jpg", "pictures/truncated.jpg")] {
            _ = try await queue.enqueue(
                try NewJob(request: ObjectRequest(bucket: "post-images", path: name), source: source))
        }
        let worker = try DaemonProcess(
            [
                "--queue", "sqlite:\(path)", "--root", TestPaths.samples.path, "--buckets",
                TestPaths.samples.appendingPathComponent("buckets").path, "--out",
                directory.appendingPathComponent("r").path, "--workers", "1", "--listen", "127.0.0.1:0",
                "--quarantine", directory.appendingPathComponent("quarantine.sqlite3").path,
            ], directory: directory, secret: false, command: "work")
        try worker.waitForLog(event: "job_finished", after: 1, timeout: .seconds(60))

        #expect(try worker.send("GET", "/livez").json["status"] as? String == "ok")
        let ready = try worker.send("GET", "/readyz")
        #expect(ready.status == 200 && ready.json["status"] as? String == "ready")
        let metrics = try worker.send("GET", "/metrics")
        #expect(metrics.contentType.hasPrefix("text/plain; version=0.0.4"))
        #expect(try worker.metric("variantd_work_jobs{state=\"completed\"}") == 1)
        #expect(try worker.metric("variantd_work_jobs{state=\"unreadable\"}") == 1)
        #expect(try worker.metric("variantd_work_jobs{state=\"available\"}") == 0)
        #expect(try worker.metric("variantd_work_attempts_total{state=\"completed\",code=\"ok\"}") == 1)
        #expect(
            try worker.metric(
                "variantd_work_attempts_total{state=\"unreadable\",code=\"unreadable_picture\"}") == 1)
        #expect((try worker.metric("variantd_work_claim_duration_seconds_count") ?? 0) >= 2)
        #expect(try worker.metric("variantd_work_lease_losses_total") == 0)
        #expect(try worker.metric("variantd_work_callback_failures_total") == 0)
        #expect(try worker.metric("variantd_decoder_crashes_total") == 0)
        for path in ["/livez", "/readyz", "/metrics"] {
            #expect(try worker.send("HEAD", path, curlOptions: ["--head"]).status == 200, "\(path)")
        }
        let wrong = try worker.send("POST", "/metrics")
        #expect(wrong.status == 405 && wrong.error == "method_not_allowed" && wrong.allow == "GET, HEAD")

        worker.signal(SIGTERM)
        #expect(worker.waitForExit() == 0)
    }
}
