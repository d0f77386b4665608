import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `GET /v1/info/<bucket>/<path>`: the completion metadata `variantd probe` prints for the same bytes, measured
/// once per checksum, under the render URLs' access rules and with their errors.
@Suite struct InfoServiceTests {
    private typealias World = RenderServiceBudgetTests.CountingWorld

    private static let gradient = "/v1/info/pics/2026/gradient.jpg"

    private func json(_ body: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    /// What `variantd probe --bucket NAME FILE` prints for the file, but for `path`, which names the file
    /// there.
    private func probe(_ file: String, bucket: String) async throws -> [String: Any] {
        let probed = try await VariantdProcess.run(["probe", "--bucket", bucket, file])
        #expect(probed.status == 0, "\(probed.stderr)")
        var fields = try json(Array(probed.stdout.utf8))
        fields["path"] = nil
        return fields
    }

    private func get(_ target: String) -> HTTPRequest {
        HTTPRequest(
            method: "GET", path: String(target.prefix { $0 != "?" }), target: target, headers: [:],
            query: [:],
            body: .empty, bodyTooLarge: false)
    }

    @Test func equalsProbeAndMeasuresOnce() async throws {
        let world = try World()
        defer { world.remove() }
        let info = InfoService(render: world.service)
        let first = await info.answer(get(Self.gradient))
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect(first.headers.contains { $0 == ("Content-Type", "application/json") })
        #expect(first.headers.contains { $0 == ("Cache-Control", "public, max-age=60") })
        var fields = try json(first.body)
        #expect(fields["bucket"] as? String == "pics" && fields["path"] as? String == "2026/gradient.jpg")
        #expect(fields["contentType"] as? String == "image/jpeg")
        #expect(fields["width"] as? Int == 320 && fields["height"] as? Int == 200)
        let colour = try #require(fields["dominantColour"] as? String)
        #expect(colour.utf8.count == 7 && colour.hasPrefix("#"))
        fields["path"] = nil
        let file = world.directory.appendingPathComponent("objects/pics/2026/gradient.jpg").path
        #expect(
            NSDictionary(dictionary: fields)
                == NSDictionary(dictionary: try await probe(file, bucket: "pics")))
        let measured = world.counts
        #expect(measured.sourceReads == 1 && measured.sourceHashes == 1)

        // Asked again: answered at once from the remembered checksum, nothing read, hashed or decoded.
        guard case .now(let again) = info.respond(to: get(Self.gradient)) else {
            Issue.record("the second request waited")
            return
        }
        #expect(again.status == 200 && again.body == first.body)
        #expect(world.counts == measured)

        // A render of the same source finds its checksum remembered too: the sources are the render path's.
        let render = await world.service.answer(world.get("width=32&format=png"))
        #expect(render.status == 200)
        #expect(world.counts.sourceHashes == measured.sourceHashes)
    }

    @Test func refusesAsRenderRefuses() async throws {
        let world = try World()
        defer { world.remove() }
        let folder = world.directory.appendingPathComponent("objects/pics/2026")
        for (sample, name) in [("other/sizes.csv", "sizes.csv"), ("pictures/truncated.jpg", "cut.jpg")] {
            try FileManager.default.copyItem(
                at: TestPaths.samples.appendingPathComponent(sample), to: folder.appendingPathComponent(name))
        }
        let info = InfoService(render: world.service)
        let cases: [(target: String, status: Int, error: String)] = [
            ("/v1/info/pics/2026/missing.jpg", 404, "not_found"),
            ("/v1/info/pics/2026/sizes.csv", 415, "unsupported_media_type"),
            ("/v1/info/pics/2026/sizes.csv", 415, "unsupported_media_type"),
            ("/v1/info/pics/2026/cut.jpg", 422, "unreadable_picture"),
            ("/v1/info/pics/2026/gradient.jpg?width=10", 400, "invalid_request"),
            ("/v1/info/pics/2026/gradient.jpg?variant=thumb", 400, "invalid_request"),
            ("/v1/info/pics/../secret.jpg", 400, "invalid_request"),
        ]
        for (target, status, error) in cases {
            let answer = await info.answer(get(target))
            #expect(answer.status == status, "\(target): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(try json(answer.body)["error"] as? String == error, "\(target)")
        }
        let render = await world.service.answer(get("/v1/render/pics/2026/cut.jpg?width=10"))
        let unreadable = await info.answer(get("/v1/info/pics/2026/cut.jpg"))
        #expect(try json(render.body)["reason"] as? String == json(unreadable.body)["reason"] as? String)
    }

    /// Over HTTP: a private bucket's info takes the secret or a signed URL, as its renditions do; the same
    /// bytes under another name, or asked by several requests at once, are measured once.
    @Test func privateBucketsTakeTheSecretOrASignedURL() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        try FileManager.default.copyItem(
            at: TestPaths.samples.appendingPathComponent("pictures/gradient.webp"),
            to: fixture.root.appendingPathComponent("pics/2026/gradient.webp"))
        let keyPath = try fixture.writeURLKey()
        let daemon = try fixture.start(["--url-key-file", keyPath])
        let target = "/v1/info/vault/2026/hopper.avif"
        let anonymous = try daemon.render(target)
        #expect(anonymous.status == 403 && anonymous.error == "forbidden")
        let bearer = try daemon.render(target, headers: ["Authorization: Bearer \(DaemonProcess.secret)"])
        #expect(bearer.status == 200 && bearer.headers["cache-control"] == "private")
        #expect(bearer.json["contentType"] as? String == "image/avif" && bearer.json["thumbhash"] is String)
        let key = try URLKey(file: keyPath)
        let signed = key.sign(target, expires: Int(Date().timeIntervalSince1970) + 600)
        let good = try daemon.render(signed)
        #expect(good.status == 200 && good.body == bearer.body)
        let expired = try daemon.render(key.sign(target, expires: Int(Date().timeIntervalSince1970) - 5))
        #expect(expired.status == 403 && expired.error == "forbidden")
        let open = try daemon.render("/v1/info/pics/2026/gradient-alpha.png")
        #expect(open.status == 200 && open.json["hasAlpha"] as? Bool == true)
        let head = try daemon.render("/v1/info/pics/2026/gradient-alpha.png", head: true)
        #expect(head.status == 200 && head.body.isEmpty)
        let post = try daemon.render(target, body: "{}")
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")

        // The same bytes in another bucket, and the first asked again: measured once.
        let gradient = try daemon.render("/v1/info/pics/2026/gradient.jpg")
        let again = try daemon.render("/v1/info/pics/2026/gradient.jpg")
        let vault = try daemon.render(
            "/v1/info/vault/2026/gradient.jpg", headers: ["Authorization: Bearer \(DaemonProcess.secret)"])
        #expect(gradient.status == 200 && again.body == gradient.body)
        #expect(vault.status == 200 && vault.json["bucket"] as? String == "vault")
        #expect(vault.json["checksumSha256"] as? String == gradient.json["checksumSha256"] as? String)
        #expect(try daemon.metric(line: "variantd_info_measured_total") == 3)

        // Requests for the same new bytes arriving together wait for one measurement.
        let calls = try (0..<4).map { _ in try daemon.startRender("/v1/info/pics/2026/gradient.webp") }
        let answers = calls.map { $0.finish() }
        #expect(answers.allSatisfy { $0.status == 200 && $0.body == answers[0].body })
        #expect(try daemon.metric(line: "variantd_info_measured_total") == 4)

        // Each request is one access-log line, within the log's 100 ms batch.
        let deadline = ContinuousClock.now + .seconds(10)
        var lines: [[String: Any]] = []
        while lines.count < 13, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            lines = daemon.log.filter { $0["event"] as? String == "info" }
        }
        let outcomes = lines.map { "\($0["status"] ?? "")/\($0["outcome"] ?? "")/\($0["code"] ?? "")" }
        #expect(outcomes.count == 13, "\(outcomes)")
        #expect(outcomes.filter { $0 == "403/rejected/forbidden" }.count == 2)
        #expect(outcomes.filter { $0 == "200/miss/ok" }.count == 4)
        #expect(
            outcomes.filter { $0 == "200/shared/ok" }.count + outcomes.filter { $0 == "200/hit/ok" }.count
                == 7)
        #expect(
            lines.contains {
                $0["path"] as? String == "2026/hopper.avif" && $0["bucket"] as? String == "vault"
            })
    }
}

extension InfoService {
    /// The answer to one request, whether it came at once or from a task.
    fileprivate func answer(_ request: HTTPRequest) async -> HTTPResponse {
        switch respond(to: request) {
        case .now(let response): response
        case .later(let work): await work()
        }
    }
}
