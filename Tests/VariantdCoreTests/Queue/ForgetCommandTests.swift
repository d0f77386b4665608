import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `variantd forget` and `DELETE /v1/objects/…`: a job that finds the object gone removes its renditions,
/// declared and on-demand alike, over folder stores.
@Suite struct ForgetCommandTests {
    /// The renditions stored for the bytes of a sample picture, by file name.
    private static func renditions(in out: URL, of picture: String) throws -> [String] {
        let bytes = try [UInt8](
            Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/" + picture)))
        let folder = out.appendingPathComponent(RenditionKey.directory(ofSource: SHA256.hex(bytes)))
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    @Test func aForgottenObjectsRenditionsAreRemoved() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let queue = "sqlite:" + fixture.directory.appendingPathComponent("queue.sqlite3").path
        let work = [
            "work", "--queue", queue, "--root", fixture.root.path, "--buckets", fixture.buckets.path, "--out",
            fixture.out.path, "--until-idle",
        ]
        let enqueued = try await VariantdProcess.run([
            "enqueue", "--queue", queue, "--bucket", "post-images", "--path", "up/gradient.jpg",
        ])
        #expect(enqueued.status == 0, "\(enqueued.stderr)")
        #expect(try await VariantdProcess.run(work).status == 0)
        #expect(try Self.renditions(in: fixture.out, of: "gradient.jpg").count == 3)

        // Still there: the job renders it again, reusing its renditions, and forgets nothing.
        let early = try await VariantdProcess.run([
            "forget", "--queue", queue, "--bucket", "post-images", "--path", "up/gradient.jpg", "--source",
            "up/gradient.jpg",
        ])
        #expect(early.status == 0 && early.stdout.contains(#""created":true"#), "\(early.stderr)")
        #expect(try await VariantdProcess.run(work).status == 0)
        #expect(try Self.renditions(in: fixture.out, of: "gradient.jpg").count == 3)

        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("up/gradient.jpg"))
        let forget = try await VariantdProcess.run([
            "forget", "--queue", queue, "--bucket", "post-images", "--path", "up/gradient.jpg", "--source",
            "up/gradient.jpg",
        ])
        #expect(forget.status == 0, "\(forget.stderr)")
        let worked = try await VariantdProcess.run(work)
        #expect(worked.stdout.contains(#""event":"renditions_forgotten""#), "\(worked.stdout)")
        #expect(try Self.renditions(in: fixture.out, of: "gradient.jpg").isEmpty)
    }

    /// The daemon's own worker renders an async job; once the object is deleted, `DELETE` forgets it.
    @Test func deleteForgetsThroughTheDaemonsOwnWorker() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        let body = Array(try JSONSerialization.data(withJSONObject: ServeFixture.job("up/gradient.jpg")))
        #expect(try daemon.send("POST", "/v1/jobs?async=1", body: body).status == 202)
        try await eventually { try Self.renditions(in: fixture.out, of: "gradient.jpg").count == 3 }

        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("up/gradient.jpg"))
        let wrong = try daemon.send(
            "DELETE", "/v1/objects/post-images/photos/gradient.jpg", authorization: nil)
        #expect(wrong.status == 401 && wrong.error == "unauthorized")
        let unknown = try daemon.send("DELETE", "/v1/objects/nowhere/photos/gradient.jpg")
        #expect(unknown.status == 404 && unknown.error == "not_found")
        let deleted = try daemon.send("DELETE", "/v1/objects/post-images/photos/gradient.jpg")
        #expect(deleted.status == 202, "\(deleted.text)")
        try await eventually { try Self.renditions(in: fixture.out, of: "gradient.jpg").isEmpty }
    }

    @Test func aDeletedObjectsTransformsStopCountingAgainstTheBudget() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start(["--on-demand-budget", "100000000"])
        let job = [
            "id": "job-1", "bucket": "pics", "path": "2026/gradient.jpg", "source": "pics/2026/gradient.jpg",
        ]
        let body = Array(try JSONSerialization.data(withJSONObject: job))
        #expect(try daemon.send("POST", "/v1/jobs?async=1", body: body).status == 202)
        try await eventually { try Self.renditions(in: fixture.out, of: "gradient.jpg").count == 1 }
        let transform = "/v1/render/pics/2026/gradient.jpg?width=48&format=jpeg"
        let made = try daemon.render(transform)
        #expect(made.status == 200)
        #expect(try daemon.metric(line: "variantd_on_demand_bytes") == Double(made.body.count))

        try FileManager.default.removeItem(at: fixture.root.appendingPathComponent("pics/2026/gradient.jpg"))
        #expect(try daemon.send("DELETE", "/v1/objects/pics/2026/gradient.jpg").status == 202)
        try await eventually { try Self.renditions(in: fixture.out, of: "gradient.jpg").isEmpty }
        try await eventually { try daemon.metric(line: "variantd_on_demand_bytes") == 0 }
        #expect(try daemon.render(transform).status == 404)
    }

    private func eventually(_ condition: () throws -> Bool) async throws {
        for _ in 0..<600 {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("not within a minute")
    }
}
