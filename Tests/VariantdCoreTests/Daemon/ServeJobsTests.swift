import Foundation
import Testing
import VariantdCore
import VariantdTestSupport
import Variants

/// `POST /v1/jobs` over real HTTP (curl) against the built daemon: every outcome with its status and code.
@Suite struct ServeJobsTests {
    @Test func answersMetadataAndWritesRenditions() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        let reply = try daemon.job(ServeFixture.job("up/gradient.jpg"))
        #expect(reply.status == 200)
        #expect(reply.contentType == "application/json")
        let metadata = try WireJSON.decode(CompletionMetadata.self, from: reply.body)
        #expect(metadata.width == 320 && metadata.height == 200)
        #expect(metadata.contentType == "image/jpeg")
        #expect(metadata.path == "photos/gradient.jpg" && metadata.bucket == "post-images")
        let renditions = try #require(metadata.renditions)
        #expect(Set(renditions.keys) == ["thumb", "medium", "large"])
        let pipeline = try Pipeline()
        for (name, rendition) in renditions {
            let bytes = try #require(
                FileManager.default.contents(atPath: fixture.out.path + "/" + rendition.key))
            var timings = StageTimings()
            let readBack = try pipeline.run(
                RenditionOrder(ObjectRequest(bucket: "b", path: name), bucket: nil), bytes: [UInt8](bytes),
                timings: &timings)
            #expect(readBack.width == rendition.width && readBack.height == rendition.height)
            #expect(readBack.size == rendition.size)
        }
        let thumb = try #require(renditions["thumb"])
        #expect(thumb.width == 200 && thumb.height == 200)
        let line = try daemon.waitForLog(event: "job")
        #expect(line["id"] as? String == "job-1" && line["outcome"] as? String == "ok")
        #expect(line["bytesIn"] as? Int == 5303)
        #expect((line["durations"] as? [String: Double])?["decode"] != nil)
    }

    @Test func typedErrorsCarryTheirStatus() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()

        let truncated = try daemon.job(ServeFixture.job("up/truncated.jpg"))
        #expect(truncated.status == 422 && truncated.error == "unreadable_picture")
        #expect(truncated.json["reason"] as? String == "truncated")

        let pdf = try daemon.job(ServeFixture.job("up/document.pdf"))
        #expect(pdf.status == 415 && pdf.error == "unsupported_media_type")

        var small = ServeFixture.job("up/gradient.jpg", bucket: "tiny")
        small["bucketPolicy"] = ["name": "tiny", "fileSizeLimit": 100]
        let tooLarge = try daemon.job(small)
        #expect(tooLarge.status == 413 && tooLarge.error == "payload_too_large")

        let missing = try daemon.job(ServeFixture.job("up/nothing.jpg"))
        #expect(missing.status == 404 && missing.error == "not_found")

        let unknownBucket = try daemon.job(ServeFixture.job("up/gradient.jpg", bucket: "elsewhere"))
        #expect(unknownBucket.status == 404 && unknownBucket.error == "not_found")

        let route = try daemon.send("GET", "/v2/nothing")
        #expect(route.status == 404 && route.error == "not_found")
    }

    @Test func inlineBucketPoliciesAreValidatedAtTheEdge() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        let manyText = try String(
            contentsOf: TestPaths.samples.appendingPathComponent("buckets/invalid/too-many-variants.json"),
            encoding: .utf8)
        let many = try #require(try JSONSerialization.jsonObject(with: Data(manyText.utf8)) as? [String: Any])
        var job = ServeFixture.job("up/gradient.jpg", bucket: try #require(many["name"] as? String))
        job["bucketPolicy"] = many
        let tooMany = try daemon.job(job)
        #expect(tooMany.status == 429 && tooMany.error == "too_many_variants")

        var badQuality = ServeFixture.job("up/gradient.jpg", bucket: "q")
        badQuality["bucketPolicy"] = ["name": "q", "variants": ["thumb": ["width": 10, "quality": 0]]]
        let invalid = try daemon.job(badQuality)
        #expect(invalid.status == 400 && invalid.error == "invalid_transform")

        var inline = ServeFixture.job("up/gradient.jpg", bucket: "inline")
        inline["bucketPolicy"] = ["name": "inline", "variants": ["small": ["width": 32, "format": "png"]]]
        let rendered = try daemon.job(inline)
        #expect(rendered.status == 200)
        let metadata = try WireJSON.decode(CompletionMetadata.self, from: rendered.body)
        #expect(metadata.renditions?["small"]?.width == 32 && metadata.renditions?["small"]?.height == 20)
    }

    @Test func malformedJobsAreBadRequests() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start(["--max-body", "2048"])
        let notJSON = try daemon.send("POST", "/v1/jobs", body: Array("{not json".utf8))
        #expect(notJSON.status == 400 && notJSON.error == "invalid_request")

        var unknownKey = ServeFixture.job("up/gradient.jpg")
        unknownKey["declaredContentTyp"] = "image/jpeg"
        #expect(try daemon.job(unknownKey).error == "invalid_request")

        var badBucket = ServeFixture.job("up/gradient.jpg")
        badBucket["bucket"] = "../etc"
        #expect(try daemon.job(badBucket).status == 400)

        var badID = ServeFixture.job("up/gradient.jpg")
        badID["id"] = ""
        #expect(try daemon.job(badID).status == 400)

        let wrongMethod = try daemon.send("GET", "/v1/jobs")
        #expect(wrongMethod.status == 405 && wrongMethod.allow == "POST")

        let huge = try daemon.send("POST", "/v1/jobs", body: [UInt8](repeating: 0x20, count: 4096))
        #expect(huge.status == 413 && huge.error == "payload_too_large")
    }

    @Test func sourcesAreConfinedToTheRoot() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        for source in [
            "../outside/secret.jpg", "up/../../outside/secret.jpg", fixture.root.path + "/up/gradient.jpg",
            "up/escape.jpg", "up/gradient.jpg\u{0}.png",
        ] {
            let reply = try daemon.job(ServeFixture.job(source))
            #expect(reply.status == 400, "\(source)")
            #expect(reply.error == "invalid_request", "\(source)")
        }
        #expect(try daemon.job(ServeFixture.job("./up/gradient.jpg")).status == 200)
    }

    @Test func tcpRequiresTheSecret() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try fixture.start()
        let job = ServeFixture.job("up/gradient.jpg")
        for authorization in [
            nil, "Bearer wrong-secret-0123456789abcd", "Basic " + DaemonProcess.secret,
            "Bearer " + DaemonProcess.secret + "x",
        ] {
            let reply = try daemon.job(job, authorization: authorization)
            #expect(reply.status == 401 && reply.error == "unauthorized")
            #expect(reply.authenticate == "Bearer")
        }
        #expect(try daemon.job(job, authorization: "bearer " + DaemonProcess.secret).status == 200)
        #expect(try daemon.send("GET", "/livez", authorization: nil).status == 200)
    }

    @Test func refusesToListenOnTCPWithoutASecret() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        #expect(throws: DaemonFailure.self) { try fixture.start(secret: false) }
    }
}
