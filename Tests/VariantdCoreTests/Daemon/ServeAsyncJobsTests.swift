import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `POST /v1/jobs?async=1`: the daemon commits the job to the durable queue and answers 202; a worker on the
/// same queue renders it.
@Suite struct ServeAsyncJobsTests {
    @Test func asyncJobIsQueuedOnceAndRenderedByAWorker() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let queue = "sqlite:" + fixture.directory.appendingPathComponent("queue.sqlite3").path
        let daemon = try fixture.start(["--queue", queue])
        let body = Array(try JSONSerialization.data(withJSONObject: ServeFixture.job("up/gradient.jpg")))

        let first = try daemon.send("POST", "/v1/jobs?async=1&version=7", body: body)
        #expect(first.status == 202, "\(first.text)")
        #expect(first.json["created"] as? Bool == true)
        let again = try daemon.send("POST", "/v1/jobs?async=1&version=7", body: body)
        #expect(again.status == 202 && again.json["created"] as? Bool == false)
        #expect(again.json["id"] as? Int == first.json["id"] as? Int)

        let work = try await VariantdProcess.run([
            "work", "--queue", queue, "--root", fixture.root.path, "--buckets", fixture.buckets.path, "--out",
            fixture.out.path, "--until-idle",
        ])
        #expect(work.status == 0, "\(work.stderr)")
        let jobs = try await VariantdProcess.run(["jobs", "--queue", queue])
        let line = try #require(jobs.stdout.split(separator: "\n").first)
        let job = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(job["state"] as? String == "completed")
    }

    /// Without `--queue` the daemon commits to the default queue in its data folder and runs it itself.
    @Test func withoutAQueueTheDaemonRunsItsOwnJobs() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        let body = Array(try JSONSerialization.data(withJSONObject: ServeFixture.job("up/gradient.jpg")))
        let reply = try daemon.send("POST", "/v1/jobs?async=1", body: body)
        #expect(reply.status == 202, "\(reply.text)")
        let queue = daemon.directory.appendingPathComponent("data/queue.sqlite3").path
        var state: String?
        for _ in 0..<600 where state != "completed" {
            try await Task.sleep(for: .milliseconds(100))
            let jobs = try await VariantdProcess.run(["jobs", "--queue", "sqlite:" + queue])
            let line = jobs.stdout.split(separator: "\n").first.map(String.init) ?? "{}"
            state =
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["state"]
                as? String
        }
        #expect(state == "completed")
    }
}
