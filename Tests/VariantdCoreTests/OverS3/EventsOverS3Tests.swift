import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// An object's whole life over a real SeaweedFS whose filer posts its own events to the daemon (the
/// `notification.toml` an operator writes): uploads rendered, overwrites rendered again, deletions and
/// renames forgotten, and events posted by hand in the S3 shape.
@Suite(.serialized, .seaweedInstalled)
struct EventsOverS3Tests {
    /// The daemon, a SeaweedFS that tells it of every change, its source bucket and its rendition bucket.
    final class World {
        let server: SeaweedServer
        let fixture: ServeFixture
        let daemon: DaemonProcess
        let client: S3Client
        let sources: String
        let renditions: String
        let callbacks: String
        let receiver: ScriptedServer

        init(workers: Int = 1) throws {
            let port = try LoopbackPorts.free(1)[0]
            server = try SeaweedServer(
                binary: try #require(SeaweedServer.binary),
                webhook: ("http://127.0.0.1:\(port)/v1/events", DaemonProcess.secret))
            client = try server.client()
            sources = try server.freshBucket()
            renditions = try server.freshBucket()
            fixture = try ServeFixture()
            callbacks = fixture.directory.appendingPathComponent("callbacks.jsonl").path
            receiver = try ScriptedServer(
                ScriptedServer.receiver(failingFirst: false), arguments: [callbacks])
            daemon = try DaemonProcess(
                [
                    "--listen", "127.0.0.1:\(port)", "--root", "s3://\(sources)", "--out",
                    "s3://\(renditions)",
                    "--buckets", fixture.buckets.path, "--slots", "1", "--workers", "\(workers)",
                    "--callback", "http://127.0.0.1:\(receiver.port)/done",
                ],
                directory: fixture.directory, environment: server.environment())
        }

        deinit {
            daemon.kill()
            receiver.stop()
            server.stop()
            fixture.remove()
        }

        /// The keys stored for a source's bytes.
        func renditionKeys(of bytes: [UInt8]) throws -> [String] {
            var keys: [String] = []
            try client.list(
                bucket: renditions, prefix: RenditionKey.directory(ofSource: SHA256.hex(bytes)) + "/"
            ) {
                keys += $0.map(\.key)
            }
            return keys
        }

        func put(_ key: String, _ bytes: [UInt8]) throws {
            try client.put(bucket: sources, key: key, bytes: bytes, contentType: "image/jpeg")
        }

        /// The final jobs the callback receiver was sent.
        var reported: [[String: Any]] {
            let text = (try? String(contentsOfFile: callbacks, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                let request = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let body = request?["body"] as? String ?? ""
                return try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            }
        }

        /// Polls `condition` every 100 ms for up to a minute: the filer posts its events a moment after each
        /// change, and the daemon's worker renders them one after another.
        func eventually(_ what: String, _ condition: () throws -> Bool) async throws {
            for _ in 0..<600 {
                if try condition() { return }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("not within a minute: \(what)")
        }
    }

    static func picture(_ name: String, padding: Int = 0) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/" + name)))
            + [UInt8](repeating: 0, count: padding)
    }

    @Test func anUploadIsRenderedOverwrittenAndForgotten() async throws {
        let world = try World()
        let first = try Self.picture("gradient.jpg")
        try world.put("post-images/life/a b.jpg", first)
        try await world.eventually("the upload's three renditions") {
            try world.renditionKeys(of: first).count == 3
        }
        try await world.eventually("its completion reported") {
            world.reported.contains {
                $0["path"] as? String == "life/a b.jpg" && $0["state"] as? String == "completed"
            }
        }

        let second = try Self.picture("orientation-6.jpg")
        try world.put("post-images/life/a b.jpg", second)
        try await world.eventually("the overwrite rendered and the old renditions gone") {
            try world.renditionKeys(of: second).count == 3 && world.renditionKeys(of: first).isEmpty
        }
        let render = try world.daemon.send(
            "GET", "/v1/render/post-images/life/a%20b.jpg?width=100&format=png")
        #expect(render.status == 200, "\(render.text)")
        var timings = StageTimings()
        let shown = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "answer"), bucket: nil), bytes: render.body,
            timings: &timings)
        #expect(shown.width == 100 && shown.height == 160, "the overwrite, a portrait, is served")

        try world.client.delete(bucket: world.sources, key: "post-images/life/a b.jpg")
        try await world.eventually("the deletion's renditions gone") {
            try world.renditionKeys(of: second).isEmpty
        }
        let gone = try world.daemon.send("GET", "/v1/render/post-images/life/a%20b.jpg?width=100&format=png")
        #expect(gone.status == 404 && gone.error == "not_found", "\(gone.text)")
    }

    /// Two objects with the same bytes share their renditions: deleting one leaves the other's.
    @Test func sharedBytesKeepTheirRenditionsWhileAnObjectHoldsThem() async throws {
        let world = try World()
        let bytes = try Self.picture("gradient.jpg", padding: 7)
        try world.put("post-images/one.jpg", bytes)
        try world.put("post-images/two.jpg", bytes)
        try await world.eventually("both recorded") {
            world.reported.filter { ($0["state"] as? String) == "completed" }.count >= 2
        }
        try world.client.delete(bucket: world.sources, key: "post-images/one.jpg")
        try await world.eventually("the deletion handled") {
            world.reported.contains {
                $0["path"] as? String == "one.jpg" && $0["state"] as? String == "failed"
            }
        }
        #expect(try world.renditionKeys(of: bytes).count == 3)
        let render = try world.daemon.send("GET", "/v1/render/post-images/two.jpg?variant=thumb")
        #expect(render.status == 200, "\(render.text)")
    }

    /// A rename in the filer is the old name removed and the new one written.
    @Test func aRenameServesTheNewNameOnly() async throws {
        let world = try World()
        let bytes = try Self.picture("gradient.jpg", padding: 11)
        try world.put("post-images/old.jpg", bytes)
        try await world.eventually("the upload rendered") { try world.renditionKeys(of: bytes).count == 3 }
        let move = Process()
        move.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        move.arguments = [
            "-sS", "-o", "/dev/null", "-X", "POST",
            "http://127.0.0.1:\(world.server.filerPort)/buckets/\(world.sources)/post-images/new.jpg"
                + "?mv.from=/buckets/\(world.sources)/post-images/old.jpg",
        ]
        try move.run()
        move.waitUntilExit()
        try await world.eventually("the old name forgotten") {
            try world.daemon.send("GET", "/v1/render/post-images/old.jpg?variant=thumb").status == 404
        }
        try await world.eventually("the new name rendered") {
            world.reported.contains {
                $0["path"] as? String == "new.jpg" && $0["state"] as? String == "completed"
            }
        }
        #expect(try world.renditionKeys(of: bytes).count == 3)
        #expect(try world.daemon.send("GET", "/v1/render/post-images/new.jpg?variant=thumb").status == 200)
    }

    /// The S3 event message, as MinIO posts it, with its form-encoded key; a wrong secret and a body of
    /// neither shape are refused and commit nothing.
    @Test func eventsPostedByHand() async throws {
        let world = try World()
        let bytes = try Self.picture("gradient.jpg", padding: 13)
        try world.put("post-images/by hand/é.jpg", bytes)
        let message = """
            {"Records":[{"eventName":"s3:ObjectCreated:Put","s3":{"bucket":{"name":"\(world.sources)"},
            "object":{"key":"post-images/by+hand/%C3%A9.jpg","size":\(bytes.count),"eTag":"x","sequencer":"1"}}},
            {"eventName":"s3:ObjectCreated:Put","s3":{"bucket":{"name":"elsewhere"},
            "object":{"key":"post-images/x.jpg","size":1,"eTag":"y","sequencer":"2"}}}]}
            """
        let wrong = try world.daemon.send(
            "POST", "/v1/events", body: Array(message.utf8), authorization: "Bearer nope")
        #expect(wrong.status == 401 && wrong.error == "unauthorized")
        let malformed = try world.daemon.send("POST", "/v1/events", body: Array(#"{"hello": 1}"#.utf8))
        #expect(malformed.status == 400 && malformed.error == "invalid_request", "\(malformed.text)")

        let accepted = try world.daemon.send("POST", "/v1/events", body: Array(message.utf8))
        #expect(accepted.status == 202, "\(accepted.text)")
        #expect(accepted.json["queued"] as? Int == 1 && accepted.json["ignored"] as? Int == 1)
        try await world.eventually("the object named by hand rendered") {
            try world.renditionKeys(of: bytes).count == 3
        }
        let metrics = try world.daemon.send("GET", "/metrics")
        #expect(metrics.text.contains(#"variantd_events_total{outcome="ignored"}"#))
    }

    /// A thousand uploads and deletions over forty names, as fast as the client sends them: once the
    /// events are worked off, every name left has the renditions of its last bytes, and no bytes that no name
    /// holds keep theirs; no object version was worked twice.
    @Test func aBurstLeavesEveryObjectInItsFinalState() async throws {
        let world = try World(workers: 2)
        var generator = SystemRandomNumberGenerator()
        var final: [String: [UInt8]?] = [:]
        var written: [[UInt8]] = []
        for step in 0..<1000 {
            let name = "post-images/burst/\(Int.random(in: 0..<40, using: &generator)).jpg"
            if final[name] != nil, Bool.random(using: &generator) {
                try world.client.delete(bucket: world.sources, key: name)
                final[name] = .some(nil)
            } else {
                let bytes = try Self.picture("gradient.jpg", padding: 100 + step)
                try world.put(name, bytes)
                final[name] = .some(bytes)
                written.append(bytes)
            }
        }
        let kept = Set(final.values.compactMap { $0.map(SHA256.hex) })
        let queue = world.fixture.directory.appendingPathComponent("data/queue.sqlite3").path
        for _ in 0..<1800 {
            let jobs = try await VariantdProcess.run([
                "jobs", "--queue", "sqlite:" + queue, "--state", "available",
            ])
            let running = try await VariantdProcess.run([
                "jobs", "--queue", "sqlite:" + queue, "--state", "running",
            ])
            if jobs.stdout.isEmpty, running.stdout.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        // The filer posts some events a moment after the last change: let them in, and let them be worked.
        try await world.eventually("the events worked off") {
            try written.allSatisfy { bytes in
                let count = try world.renditionKeys(of: bytes).count
                return kept.contains(SHA256.hex(bytes)) ? count == 3 : count == 0
            }
        }
        let all = try await VariantdProcess.run(["jobs", "--queue", "sqlite:" + queue])
        var versions: [String: Int] = [:]
        for line in all.stdout.split(separator: "\n") {
            let job = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let key = "\(job["path"] ?? "") \(job["version"] ?? "")"
            versions[key, default: 0] += 1
        }
        #expect(versions.values.allSatisfy { $0 == 1 }, "a version worked twice")
    }
}
