import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `GET`/`HEAD /v1/render/…` over real HTTP (curl) against the built daemon.
@Suite struct ServeRenderTests {
    private static let gradient = "/v1/render/pics/2026/gradient.jpg"

    /// Width, height and type of answered bytes, read back by our own pipeline.
    private func readBack(_ body: [UInt8]) throws -> (width: Int?, height: Int?, type: String) {
        var timings = StageTimings()
        let metadata = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "answer"), bucket: nil), bytes: body,
            timings: &timings)
        return (metadata.width, metadata.height, metadata.contentType)
    }

    private func plan(_ query: String, width: Int = 320, height: Int = 200) throws -> RenderPlan {
        let pairs = RenderRequest.parameters(of: "?" + query)
        let spec = try Transform(query: pairs, accept: nil).spec
        return RenderPlan(
            sourceWidth: width, sourceHeight: height, spec: spec, sourceHasAlpha: false, sourceFormat: .jpeg)
    }

    private func started(_ fixture: ServeFixture, _ extra: [String] = []) throws -> DaemonProcess {
        try fixture.addRenderBuckets()
        return try fixture.start(["--queue-depth", "32"] + extra)
    }

    @Test func answersThePlannedSizeForEveryFitAndFormat() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        var queries = Fit.allCases.map { "width=100&height=80&fit=\($0.rawValue)&format=webp" }
        queries += ["jpeg", "png", "webp", "avif", "original"].map { "width=90&format=\($0)" }
        queries.append("format=png")
        let calls = try queries.map { try daemon.startRender(Self.gradient + "?" + $0) }
        for (query, call) in zip(queries, calls) {
            let answer = call.finish()
            #expect(answer.status == 200, "\(query): \(answer.json)")
            let plan = try plan(query)
            let (width, height, type) = try readBack(answer.body)
            #expect(width == plan.outputWidth && height == plan.outputHeight, "\(query)")
            #expect(type == answer.headers["content-type"], "\(query)")
            let format = plan.format == .jpeg ? "jpeg" : plan.format.rawValue
            #expect(type == "image/" + format, "\(query)")
        }
    }

    @Test func cachesAsHTTPCachesExpect() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture, ["--max-age", "600"])
        let first = try daemon.render(Self.gradient + "?width=64&format=webp&fit=inside")
        #expect(first.status == 200 && first.headers["content-type"] == "image/webp")
        let tag = try #require(first.etag)
        #expect(tag.hasPrefix("\"") && tag.count == 66)
        #expect(first.headers["cache-control"] == "public, max-age=600")
        #expect(first.headers["content-length"] == String(first.body.count))
        #expect(first.headers["vary"] == "Save-Data")
        let respelled = try daemon.render(
            Self.gradient + "?format=%22webp%22&width=64.0&withoutEnlargement=true")
        #expect(respelled.status == 200 && respelled.etag == tag && respelled.body == first.body)
        let current = try daemon.render(
            Self.gradient + "?width=64&format=webp", headers: ["If-None-Match: W/\"x\", \(tag)"])
        #expect(current.status == 304 && current.body.isEmpty && current.etag == tag)
        let stale = try daemon.render(
            Self.gradient + "?width=64&format=webp", headers: ["If-None-Match: \"x\""])
        #expect(stale.status == 200 && stale.body == first.body)
        let head = try daemon.render(Self.gradient + "?width=64&format=webp", head: true)
        #expect(head.status == 200 && head.body.isEmpty && head.etag == tag)
        #expect(head.headers["content-length"] == String(first.body.count))
        #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="miss",code="ok"}"#) == 1)
        #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="hit",code="ok"}"#) == 3)
        #expect(
            try daemon.metric(line: #"variantd_render_requests_total{outcome="not_modified",code="ok"}"#) == 1
        )
        // Every request counted in on arrival is counted out with its answer.
        #expect(try daemon.metric(line: "variantd_render_requests_in_flight") == 0)
        #expect(try daemon.send("GET", "/metrics").text.contains("\nvariantd_render_requests_in_flight 0\n"))
        let line = try daemon.waitForLog(event: "render", after: 4)
        #expect(line["method"] as? String == "HEAD" && line["outcome"] as? String == "hit")
        #expect(
            line["bytesOut"] as? Int == first.body.count && line["path"] as? String == "2026/gradient.jpg")
    }

    @Test func identicalFirstRequestsRenderOnce() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let calls = try (0..<20).map { _ in try daemon.startRender(Self.gradient + "?width=150&format=avif") }
        let answers = calls.map { $0.finish() }
        #expect(answers.allSatisfy { $0.status == 200 })
        #expect(Set(answers.map(\.etag)).count == 1)
        #expect(try daemon.metric("variantd_renders_total") == 1)
        let outcomes = try (0..<20).map {
            try daemon.waitForLog(event: "render", after: $0)["outcome"] as? String
        }
        #expect(outcomes.filter { $0 == "miss" }.count == 1)
    }

    @Test func theFiftyFirstDistinctTransformIsRefusedAcrossRestarts() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        var daemon = try started(fixture)
        // 48 transforms another process already stored for these bytes.
        let bytes = try Data(contentsOf: fixture.root.appendingPathComponent("pics/2026/gradient.jpg"))
        let checksum = SHA256.hex([UInt8](bytes))
        let folder = fixture.out.appendingPathComponent("\(checksum.prefix(2))/\(checksum)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<48 {
            try Data([0xFF]).write(to: folder.appendingPathComponent(String(format: "%016x.jpg", index)))
        }
        #expect(try daemon.render(Self.gradient + "?width=70").status == 200)
        #expect(try daemon.render(Self.gradient + "?variant=thumb").status == 200)
        let refused = try daemon.render(Self.gradient + "?width=71")
        #expect(refused.status == 429 && refused.error == "too_many_variants")
        #expect(try daemon.render(Self.gradient + "?width=70").status == 200)
        #expect(
            try daemon.metric(
                line: #"variantd_render_requests_total{outcome="rejected",code="too_many_variants"}"#)
                == 1)
        daemon.kill()
        daemon = try fixture.start()
        #expect(try daemon.render(Self.gradient + "?width=71").status == 429)
        #expect(try daemon.render(Self.gradient + "?width=70").status == 200)
        #expect(try daemon.render(Self.gradient + "?variant=thumb").status == 200)
        // The same picture under another name shares the count: it is counted per source bytes.
        try FileManager.default.copyItem(
            at: fixture.root.appendingPathComponent("pics/2026/gradient.jpg"),
            to: fixture.root.appendingPathComponent("pics/copy.jpg"))
        #expect(try daemon.render("/v1/render/pics/copy.jpg?width=72").status == 429)
    }

    @Test func anOverwrittenSourceGetsANewRendition() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let source = fixture.root.appendingPathComponent("pics/2026/gradient.jpg")
        // Old enough that its identity is remembered instead of hashed on every request.
        Thread.sleep(forTimeInterval: 1.1)
        let before = try daemon.render(Self.gradient + "?width=50&format=png")
        #expect(try daemon.render(Self.gradient + "?width=50&format=png").etag == before.etag)
        let replacement = try Data(
            contentsOf: fixture.root.appendingPathComponent("pics/2026/gradient-alpha.png"))
        try replacement.write(to: source)
        let after = try daemon.render(Self.gradient + "?width=50&format=png")
        #expect(after.status == 200 && after.etag != before.etag)
        var timings = StageTimings()
        let original = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "r.png"), bucket: nil),
            bytes: [UInt8](replacement), timings: &timings)
        let plan = try plan(
            "width=50&format=png", width: try #require(original.width), height: try #require(original.height))
        let (width, height, _) = try readBack(after.body)
        #expect(width == plan.outputWidth && height == plan.outputHeight)
    }

    @Test func aLinkRepointedOutOfTheRootIsRefusedAfterItsHits() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let link = fixture.root.appendingPathComponent("pics/2026/link.jpg")
        try FileManager.default.createSymbolicLink(
            at: link, withDestinationURL: fixture.root.appendingPathComponent("pics/2026/gradient.jpg"))
        // Old enough that its identity is remembered: the second request is answered without resolving it.
        Thread.sleep(forTimeInterval: 1.1)
        let target = "/v1/render/pics/2026/link.jpg?width=30"
        #expect(try daemon.render(target).status == 200)
        #expect(try daemon.render(target).status == 200)
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(
            at: link, withDestinationURL: fixture.directory.appendingPathComponent("outside/secret.jpg"))
        let refused = try daemon.render(target)
        #expect(refused.status == 400 && refused.error == "invalid_request", "\(refused.json)")
    }

    @Test func automaticFormatFollowsAccept() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let target = Self.gradient + "?width=80&format=auto"
        let avif = try daemon.render(target, headers: ["Accept: image/avif,image/webp,*/*"])
        let webp = try daemon.render(target, headers: ["Accept: image/webp,*/*;q=0.8"])
        let jpeg = try daemon.render(target, headers: ["Accept: */*"])
        #expect(avif.headers["content-type"] == "image/avif")
        #expect(try readBack(avif.body).type == "image/avif")
        #expect(webp.headers["content-type"] == "image/webp")
        #expect(jpeg.headers["content-type"] == "image/jpeg")
        #expect([avif, webp, jpeg].allSatisfy { $0.headers["vary"] == "Accept, Save-Data" })
        #expect(Set([avif.etag, webp.etag, jpeg.etag]).count == 3)
    }

    /// `quality=auto` searches for the quality per rendition: its bytes are their own, not a fixed quality's,
    /// and a target out of range is refused like any other option.
    @Test func automaticQualityAnswersItsOwnRendition() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let automatic = try daemon.render(Self.gradient + "?width=200&format=webp&quality=auto")
        let fixed = try daemon.render(Self.gradient + "?width=200&format=webp&quality=80")
        #expect(automatic.status == 200 && fixed.status == 200, "\(automatic.json)")
        #expect(try readBack(automatic.body).width == 200)
        #expect(automatic.body != fixed.body)
        #expect(automatic.etag != fixed.etag)
        let target = try daemon.render(Self.gradient + "?width=200&quality=%7B%22ssimulacra2%22%3A99%7D")
        #expect(target.status == 400 && target.error == "invalid_transform")
        #expect(target.json["message"] as? String == "quality.ssimulacra2: expected integer in 30…95, got 99")
    }

    @Test func privateBucketsTakeTheSecretOrASignedURL() async throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let keyPath = try fixture.writeURLKey()
        let daemon = try started(fixture, ["--url-key-file", keyPath])
        let target = "/v1/render/vault/2026/gradient.jpg?width=60&format=webp"
        let anonymous = try daemon.render(target)
        #expect(anonymous.status == 403 && anonymous.error == "forbidden")
        let bearer = try daemon.render(target, headers: ["Authorization: Bearer \(DaemonProcess.secret)"])
        #expect(bearer.status == 200 && bearer.headers["cache-control"] == "private")

        let signing = try await VariantdProcess.run(
            ["sign-url", "--key-file", keyPath, "--expires-in", "600", target])
        #expect(signing.status == 0)
        let signed = signing.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(signed.hasPrefix(target + "&expires=") && signed.contains("&signature="))
        let good = try daemon.render(signed)
        #expect(good.status == 200 && good.etag == bearer.etag)

        let key = try URLKey(file: keyPath)
        let now = Int(Date().timeIntervalSince1970)
        let expired = try daemon.render(key.sign(target, expires: now - 5))
        #expect(expired.status == 403 && expired.error == "forbidden")
        let tampered = try daemon.render(signed.replacingOccurrences(of: "width=60", with: "width=61"))
        #expect(tampered.status == 403 && tampered.error == "forbidden")
        let otherKey = try URLKey(file: try fixture.writeURLKey("another-url-key-0123456789"))
        #expect(try daemon.render(otherKey.sign(target, expires: now + 600)).status == 403)
        let notLast = try daemon.render(signed + "&quality=50")
        #expect(notLast.status == 403 && notLast.error == "forbidden")
        // An expired URL with a later expiry after its signature, padded to 256 more bytes.
        let later = "&expires=\(now + 600)&quality=50"
        let revived = try daemon.render(
            key.sign(target, expires: now - 5) + later
                + String(repeating: "+", count: 256 - later.utf8.count))
        #expect(revived.status == 403 && revived.error == "forbidden")
        #expect(
            try daemon.metric(line: #"variantd_render_requests_total{outcome="rejected",code="forbidden"}"#)
                == 6)
    }

    @Test func overloadRefusesMissesWhileHitsAnswer() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        try fixture.makeLargePicture()
        let daemon = try fixture.start(["--slots", "1", "--queue-depth", "0"])
        #expect(try daemon.render(Self.gradient + "?width=30").status == 200)
        let job = try daemon.start(
            "POST", "/v1/jobs",
            body: Array(try JSONSerialization.data(withJSONObject: ServeFixture.job("up/large.jpg"))))
        let deadline = ContinuousClock.now + .seconds(120)
        while try daemon.metric("variantd_jobs_in_flight") != 1, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let busy = try daemon.render(Self.gradient + "?width=31")
        let hit = try daemon.render(Self.gradient + "?width=30")
        #expect(try job.finish().status == 200)
        #expect(busy.status == 503 && busy.error == "transform_busy")
        #expect(Int(busy.headers["retry-after"] ?? "").map { (1...60).contains($0) } == true)
        #expect(hit.status == 200)
    }

    @Test func refusesBadRequestsWithTypedErrors() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let missing = try daemon.render("/v1/render/pics/2026/nothing.jpg?width=10")
        #expect(missing.status == 404 && missing.error == "not_found")
        let variant = try daemon.render(Self.gradient + "?variant=huge")
        #expect(variant.status == 404 && variant.error == "not_found")
        let option = try daemon.render(Self.gradient + "?width=10&quality=101")
        #expect(option.status == 400 && option.error == "invalid_transform")
        #expect((option.json["message"] as? String)?.hasPrefix("quality: ") == true)
        let unknown = try daemon.render(Self.gradient + "?width=10&crop=1")
        #expect(unknown.status == 400 && (unknown.json["message"] as? String)?.hasPrefix("crop: ") == true)
        // Render.md: nothing in the query is ignored, a parameter without a name included.
        let nameless = try daemon.render(Self.gradient + "?=600&width=10")
        #expect(nameless.status == 400 && nameless.error == "invalid_transform", "\(nameless.json)")
        let mixed = try daemon.render(Self.gradient + "?variant=thumb&width=10")
        #expect(mixed.status == 400 && mixed.error == "invalid_transform")
        let table = try daemon.render("/v1/render/pics/2026/sizes.csv?width=10")
        #expect(table.status == 415 && table.error == "unsupported_media_type")
        let escape = try daemon.render("/v1/render/pics/../up/gradient.jpg?width=10")
        #expect(escape.status == 400 && escape.error == "invalid_request")
        // The path reaches us as a C string: a NUL would cut it, and another object would be answered.
        let nul = try daemon.render(Self.gradient + "%00.png?width=10")
        #expect(nul.status == 400 && nul.error == "invalid_request")
        let post = try daemon.send("POST", Self.gradient + "?width=10")
        #expect(post.status == 405 && post.error == "method_not_allowed" && post.allow == "GET, HEAD")
    }

    @Test func postNamesTheSourceForOtherLayouts() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try started(fixture)
        let viaURL = try daemon.render(Self.gradient + "?width=64&format=webp")
        let body =
            #"{"bucket": "pics", "path": "a/b.jpg", "source": "up/gradient.jpg", "transforms": {"#
            + #""format": "webp", "width": 64}}"#
        let bearer = "Authorization: Bearer \(DaemonProcess.secret)"
        let viaBody = try daemon.render("/v1/render", headers: [bearer], body: body)
        #expect(viaBody.status == 200 && viaBody.etag == viaURL.etag && viaBody.body == viaURL.body)
        #expect(viaBody.headers["content-type"] == "image/webp")
        let variant =
            #"{"bucket": "pics", "path": "a/b.jpg", "source": "up/gradient.jpg", "variant": "thumb"}"#
        #expect(try daemon.render("/v1/render", headers: [bearer], body: variant).status == 200)
        let outside = #"{"bucket": "pics", "path": "a", "source": "../x.jpg", "transforms": {"width": 1}}"#
        #expect(try daemon.render("/v1/render", headers: [bearer], body: outside).error == "invalid_request")
        let bad = #"{"bucket": "pics", "path": "a", "source": "up/gradient.jpg", "transforms": {"width": 0}}"#
        let refused = try daemon.render("/v1/render", headers: [bearer], body: bad)
        #expect(
            refused.status == 400
                && (refused.json["message"] as? String)?.hasPrefix("transforms.width: ") == true)
    }

    /// A signature covers every option, `flip`, `focus`, `dpr` and `trim` as much as `width`.
    @Test func signaturesCoverTheGeometryOptions() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let keyPath = try fixture.writeURLKey()
        let daemon = try started(fixture, ["--url-key-file", keyPath])
        let target =
            "/v1/render/vault/2026/gradient.jpg?width=60&height=40&dpr=2&flip=h&focus=0.2,0.3&trim=10"
        let signed = try URLKey(file: keyPath).sign(target, expires: Int(Date().timeIntervalSince1970) + 600)
        let good = try daemon.render(signed)
        #expect(good.status == 200, "\(good.json)")
        #expect(try readBack(good.body).width == 120)
        for (option, other) in [("flip=h", "flip=v"), ("focus=0.2", "focus=0.9"), ("dpr=2", "dpr=3")] {
            let tampered = try daemon.render(signed.replacingOccurrences(of: option, with: other))
            #expect(tampered.status == 403 && tampered.error == "forbidden", "\(other)")
        }
    }

    @Test func renderCommandWritesOneTransform() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png").path
        let source = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path
        let done = try await VariantdProcess.run(
            [
                "render", source, "--width", "100", "--height", "100", "--fit", "contain", "--format", "png",
                "-o", output,
            ])
        #expect(done.status == 0, "\(done.stderr)")
        let (width, height, type) = try readBack([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(width == 100 && height == 100 && type == "image/png")
        let bad = try await VariantdProcess.run(["render", source, "--quality", "0", "-o", output])
        #expect(bad.status == 64 && bad.stderr.contains("quality: expected integer in 1…100, got 0"))
        // An output that cannot be written is not a usage error: 74, as for batch and report.
        let unwritable = directory.appendingPathComponent("missing/out.png").path
        let failed = try await VariantdProcess.run(["render", source, "--width", "10", "-o", unwritable])
        #expect(failed.status == 74 && failed.stderr.contains(unwritable))
        #expect(!failed.stderr.contains("Usage:"))
    }
}
