import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// `POST /v1/jobs` with the object's bytes as the body (`Content-Type: application/octet-stream`) over real
/// HTTP: the same answer as a job naming the stored object, the byte limit enforced while reading, bodies past
/// the spool threshold kept in a nameless file that never outlives its request, and the daemon's memory not
/// growing with the body.
@Suite struct ServeUploadTests {
    private static let upload = "application/octet-stream"

    /// The daemon over `fixture`, its spool files made in `<fixture>/spool`.
    private func start(_ fixture: ServeFixture) throws -> DaemonProcess {
        try FileManager.default.createDirectory(at: spool(fixture), withIntermediateDirectories: true)
        return try DaemonProcess(
            [
                "--listen", "127.0.0.1:0", "--root", fixture.root.path, "--out", fixture.out.path,
                "--buckets",
                fixture.buckets.path,
            ],
            directory: fixture.directory, environment: ["TMPDIR": spool(fixture).path])
    }

    private func spool(_ fixture: ServeFixture) -> URL { fixture.directory.appendingPathComponent("spool") }

    private static func query(path: String, bucket: String = "post-images", id: String = "up-1") -> String {
        "/v1/jobs?id=\(id)&bucket=\(bucket)&path=\(path)"
    }

    /// The spool files the daemon holds open (unlinked: `/proc` shows them as `… (deleted)`), with their sizes.
    private static func openSpoolFiles(_ daemon: DaemonProcess) -> [Int] {
        let folder = "/proc/\(daemon.process.processIdentifier)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return descriptors.compactMap { descriptor in
            let link = folder + "/" + descriptor
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
                target.contains("variantd-body-")
            else { return nil }
            var status = stat()
            return stat(link, &status) == 0 ? Int(status.st_size) : 0
        }
    }

    /// Nothing left of any spool file: none open in the daemon (once the answered job has let go of its
    /// body, a moment after the answer), none named in the spool folder.
    private func expectNoSpool(_ daemon: DaemonProcess, _ fixture: ServeFixture) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !Self.openSpoolFiles(daemon).isEmpty, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(Self.openSpoolFiles(daemon).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool(fixture).path).isEmpty)
    }

    private func write(_ bytes: Int, to name: String, in fixture: ServeFixture) throws -> String {
        let path = fixture.directory.appendingPathComponent(name).path
        try Data(count: bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func postedBytesAnswerAsTheStoredObjectDoes() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.makeLargePicture()
        let daemon = try start(fixture)
        for name in ["gradient.jpg", "large.jpg"] {
            let file = fixture.root.appendingPathComponent("up/" + name).path
            let posted = try daemon.send(
                "POST", Self.query(path: "photos/" + name), bodyFile: file, contentType: Self.upload)
            // Both render afresh: a ThumbHash made beside renditions can differ from one made alone.
            let checksum = try #require(posted.json["checksumSha256"] as? String)
            try FileManager.default.removeItem(
                at: fixture.out.appendingPathComponent("\(checksum.prefix(2))/\(checksum)"))
            let stored = try daemon.job(ServeFixture.job("up/" + name))
            #expect(stored.status == 200 && posted.status == 200, "\(name): \(posted.text)")
            #expect(posted.contentType == "application/json")
            let metadata = try WireJSON.decode(CompletionMetadata.self, from: posted.body)
            #expect(metadata.renditions?.count == 3)
            #expect(posted.text == stored.text)
        }
        let large = try #require(
            try FileManager.default.attributesOfItem(atPath: fixture.root.path + "/up/large.jpg")[.size]
                as? Int)
        #expect(large > 1 << 20, "the large picture must be over the spool threshold")
        let lines = daemon.log.filter { $0["event"] as? String == "job" && $0["id"] as? String == "up-1" }
        #expect(lines.count == 2 && lines.allSatisfy { $0["outcome"] as? String == "ok" })
        try expectNoSpool(daemon, fixture)
    }

    @Test func aTruncatedPictureIsUnreadable() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try start(fixture)
        let reply = try daemon.send(
            "POST", Self.query(path: "photos/truncated.jpg"),
            bodyFile: fixture.root.path + "/up/truncated.jpg", contentType: Self.upload)
        #expect(reply.status == 422 && reply.error == "unreadable_picture")
        #expect(reply.json["reason"] as? String == "truncated")
    }

    @Test func aBodyOverTheBucketLimitIs413WithOrWithoutItsLength() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try start(fixture)
        // post-images takes 10 MiB: 12 MiB is over, both declared up front and sent in chunks.
        let body = try write(12 << 20, to: "twelve.bin", in: fixture)
        let declared = try daemon.send(
            "POST", Self.query(path: "photos/big.jpg"), bodyFile: body, contentType: Self.upload)
        #expect(declared.status == 413 && declared.error == "payload_too_large", "\(declared.text)")
        let chunked = try daemon.send(
            "POST", Self.query(path: "photos/big.jpg"), bodyFile: body, contentType: Self.upload,
            curlOptions: ["-H", "Transfer-Encoding: chunked"])
        #expect(chunked.status == 413 && chunked.error == "payload_too_large", "\(chunked.text)")
        try expectNoSpool(daemon, fixture)
        // The daemon still answers on the same terms afterwards.
        let next = try daemon.send(
            "POST", Self.query(path: "photos/gradient.jpg"), bodyFile: fixture.root.path + "/up/gradient.jpg",
            contentType: Self.upload, curlOptions: ["-H", "Transfer-Encoding: chunked"])
        #expect(next.status == 200)
    }

    @Test func theHeadIsCheckedBeforeTheBody() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try start(fixture)
        let picture = fixture.root.path + "/up/gradient.jpg"
        let unknown = try daemon.send(
            "POST", Self.query(path: "p.jpg") + "&source=up/gradient.jpg", bodyFile: picture,
            contentType: Self.upload)
        #expect(unknown.status == 400 && unknown.error == "invalid_request")
        #expect((unknown.json["message"] as? String)?.contains("'source'") == true)
        let noPath = try daemon.send(
            "POST", "/v1/jobs?id=a&bucket=post-images", bodyFile: picture, contentType: Self.upload)
        #expect(noPath.status == 400)
        let noBucket = try daemon.send(
            "POST", Self.query(path: "p.jpg", bucket: "elsewhere"), bodyFile: picture,
            contentType: Self.upload)
        #expect(noBucket.status == 404 && noBucket.error == "not_found")
        let wrongType = try daemon.send(
            "POST", Self.query(path: "p.jpg"), bodyFile: picture, contentType: "image/jpeg")
        #expect(wrongType.status == 415 && wrongType.error == "unsupported_media_type")
        let formJob = try daemon.send(
            "POST", "/v1/jobs", body: Array(#"{"id":"j"}"#.utf8),
            contentType: "application/x-www-form-urlencoded")
        #expect(formJob.status == 415)
        let noSecret = try daemon.send(
            "POST", Self.query(path: "p.jpg"), bodyFile: picture, contentType: Self.upload, authorization: nil
        )
        #expect(noSecret.status == 401 && noSecret.error == "unauthorized")
        // Query values reach us as C strings: a NUL would cut this path to "a.pdf", and the metadata
        // would answer for a path that was not sent.
        let nul = try daemon.send(
            "POST", Self.query(path: "a.pdf%00.jpg"), bodyFile: picture, contentType: Self.upload)
        #expect(nul.status == 400 && nul.error == "invalid_request", "\(nul.text)")
        let rejected = daemon.log.filter {
            $0["event"] as? String == "job" && $0["outcome"] as? String == "rejected"
        }
        #expect(rejected.count == 7)
    }

    /// A body arriving slowly is sampled mid-way: it is in a spool file, and the daemon's resident memory has
    /// not grown by anything like the bytes received so far.
    @Test func aLargeBodyCostsDiskNotMemory() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try JSONSerialization.data(withJSONObject: ["name": "large", "fileSizeLimit": 128 << 20]).write(
            to: fixture.buckets.appendingPathComponent("large.json"))
        let daemon = try start(fixture)
        _ = try daemon.job(ServeFixture.job("up/gradient.jpg"))  // children and buffers warmed up
        let pid = "\(daemon.process.processIdentifier)"
        let before = try #require(ProcessMemory.residentBytes(of: pid))
        let body = try write(96 << 20, to: "ninety-six.bin", in: fixture)
        let call = try daemon.start(
            "POST", Self.query(path: "photos/big.bin", bucket: "large"), bodyFile: body,
            contentType: Self.upload, curlOptions: ["--limit-rate", "24M"])
        var sampled: (spooled: Int, resident: Int)?
        let deadline = ContinuousClock.now + .seconds(30)
        while sampled == nil, ContinuousClock.now < deadline {
            if let spooled = Self.openSpoolFiles(daemon).max(), spooled >= 48 << 20 {
                sampled = (spooled, try #require(ProcessMemory.residentBytes(of: pid)))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let reply = try call.finish()
        let sample = try #require(sampled, "the body never showed as a spool file of 48 MiB")
        #expect(
            sample.resident - before < 16 << 20,
            "grew by \(sample.resident - before) bytes with \(sample.spooled) received")
        // Zeros are no picture: the whole body was read back and described.
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.json["size"] as? Int == 96 << 20)
        #expect(reply.json["contentType"] as? String == "application/octet-stream")
        try expectNoSpool(daemon, fixture)
    }

    /// `maxBytes` and `allowedTypes` hold one upload below its bucket's policy, at their boundaries, and a
    /// value wider than the bucket's is refused as a bad request.
    @Test func aJobsCeilingsNarrowItsBucketsPolicy() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let daemon = try start(fixture)
        let bytes = try [UInt8](
            Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")))
        func send(_ extra: String, id: String) throws -> DaemonProcess.Reply {
            try daemon.send(
                "POST", Self.query(path: "c.jpg", id: id) + extra, body: bytes, contentType: Self.upload)
        }
        let under = try send("&maxBytes=\(bytes.count - 1)", id: "under")
        #expect(under.status == 413 && under.error == "payload_too_large", "\(under.text)")
        #expect(try send("&maxBytes=\(bytes.count)", id: "at").status == 200)
        let png = try send("&allowedTypes=image/png,image/webp", id: "png")
        #expect(png.status == 415 && png.error == "unsupported_media_type", "\(png.text)")
        #expect(try send("&allowedTypes=image/png,image/jpeg", id: "jpeg").status == 200)
        let wider = try send("&maxBytes=\(10_485_761)", id: "wider")
        #expect(wider.status == 400 && wider.error == "invalid_request", "\(wider.text)")
        let otherType = try send("&allowedTypes=application/pdf", id: "pdf")
        #expect(otherType.status == 400 && otherType.error == "invalid_request", "\(otherType.text)")

        // The same ceilings on a job naming a stored object, enforced by the decoder child.
        var job = ServeFixture.job("up/gradient.jpg")
        job["maxBytes"] = bytes.count - 1
        let stored = try daemon.job(job)
        #expect(stored.status == 413 && stored.error == "payload_too_large", "\(stored.text)")
        job["maxBytes"] = bytes.count
        job["allowedTypes"] = ["image/jpeg"]
        #expect(try daemon.job(job).status == 200)
    }

    /// The spool on a full tmpfs: an upload past the spool threshold is refused `503 transform_busy` with
    /// `Retry-After`, nothing of it is left, `/readyz` says `store_full` at the spool and `/metrics` counts
    /// the failed write; once there is room a probe makes the daemon ready, and the same upload is answered.
    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullSpoolRefusesLargeUploadsTypedAndRecovers() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        let disk = try SizedTmpfs(at: spool(fixture).path, bytes: 4 << 20)
        defer { disk.unmount() }
        let daemon = try start(fixture)
        // A JPEG followed by 2 MiB its decoder never reads: over the spool threshold, and still a picture.
        let picture = try Data(contentsOf: fixture.root.appendingPathComponent("up/gradient.jpg"))
        let body = fixture.directory.appendingPathComponent("padded.jpg").path
        try (picture + Data(count: 2 << 20)).write(to: URL(fileURLWithPath: body))
        func upload() throws -> DaemonProcess.Reply {
            try daemon.send(
                "POST", Self.query(path: "photos/padded.jpg"), bodyFile: body, contentType: Self.upload)
        }

        disk.fill()
        for _ in 1...2 {
            let refused = try upload()
            #expect(refused.status == 503 && refused.error == "transform_busy", "\(refused.text)")
            #expect(!refused.retryAfter.isEmpty)
        }
        let ready = try daemon.send("GET", "/readyz")
        #expect(ready.status == 503 && ready.json["status"] as? String == "store_full", "\(ready.text)")
        #expect(ready.json["place"] as? String == "spool")
        let failures = try daemon.send("GET", "/metrics").text
        #expect(failures.contains(#"variantd_write_failures_total{place="spool",errno="ENOSPC"} 2"#))

        disk.empty()
        try expectNoSpool(daemon, fixture)
        let deadline = ContinuousClock.now + .seconds(20)
        while try daemon.send("GET", "/readyz").status != 200, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try daemon.send("GET", "/readyz").status == 200, "a probe finds the room back")
        let answered = try upload()
        #expect(answered.status == 200 && answered.json["width"] as? Int == 320, "\(answered.text)")
        try expectNoSpool(daemon, fixture)
    }
}
