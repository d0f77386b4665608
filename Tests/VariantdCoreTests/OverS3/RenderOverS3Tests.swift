import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `GET /v1/render/…` over real HTTP against the built daemon, with sources and renditions in a real
/// SeaweedFS: the checksum remembered by object identity, the cap counted by ListObjectsV2, hits from GETs.
@Suite(
    .serialized, .seaweedServer,
    .seaweedInstalled
)
struct RenderOverS3Tests {
    private static let gradient = "/v1/render/pics/2026/gradient.jpg"

    /// A fixture whose `pics` bucket is public with a declared `thumb`; nothing in its folders.
    private func fixture() throws -> ServeFixture {
        let fixture = try ServeFixture()
        let pics = #"{"name": "pics", "public": true, "variants": {"thumb": {"width": 40, "height": 40}}}"#
        try Data(pics.utf8).write(to: fixture.buckets.appendingPathComponent("pics.json"))
        return fixture
    }

    private func start(
        _ fixture: ServeFixture, root: String, out: String, server: SeaweedServer, extra: [String] = []
    ) throws -> DaemonProcess {
        try DaemonProcess(
            [
                "--listen", "127.0.0.1:0", "--root", root, "--out", out, "--buckets", fixture.buckets.path,
                "--quarantine", fixture.directory.appendingPathComponent("quarantine.sqlite3").path,
                "--queue-depth", "8", "--source-ttl", "0",
            ] + extra,
            directory: fixture.directory, environment: server.environment())
    }

    /// A fresh bucket of the suite's SeaweedFS holding `gradient.jpg` as `objects/pics/2026/gradient.jpg`.
    private func bucketWithGradient() throws
        -> (server: SeaweedServer, client: S3Client, bucket: String, original: [UInt8])
    {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let original = try picture("gradient.jpg")
        try client.put(
            bucket: bucket, key: "objects/pics/2026/gradient.jpg", bytes: original, contentType: "image/jpeg")
        return (server, client, bucket, original)
    }

    private func picture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/" + name)))
    }

    @Test func rendersOnceCountsByListingAndFollowsOverwrites() throws {
        let (server, client, bucket, original) = try bucketWithGradient()
        // 48 transforms another process already stored for these bytes.
        let directory = RenditionKey.directory(ofSource: SHA256.hex(original))
        for index in 0..<48 {
            try client.put(
                bucket: bucket, key: "renditions/\(directory)/" + String(format: "%016x.jpg", index),
                bytes: [0xFF], contentType: "image/jpeg")
        }
        let fixture = try fixture()
        defer { fixture.remove() }
        let daemon = try start(
            fixture, root: "s3://\(bucket)/objects", out: "s3://\(bucket)/renditions", server: server)

        let miss = try daemon.render(Self.gradient + "?width=64&format=webp")
        #expect(miss.status == 200 && miss.headers["content-type"] == "image/webp", "\(miss.json)")
        #expect(miss.etag == "\"\(SHA256.hex(miss.body))\"")
        #expect(miss.headers["content-length"] == String(miss.body.count))
        var stored: [S3Object] = []
        try client.list(bucket: bucket, prefix: "renditions/\(directory)/") { stored += $0 }
        let made = try #require(stored.first { $0.key.hasSuffix(".webp") })
        #expect(stored.count == 49 && made.size == miss.body.count)

        let hit = try daemon.render(Self.gradient + "?format=webp&width=64.0")
        #expect(hit.status == 200 && hit.etag == miss.etag && hit.body == miss.body)
        let head = try daemon.render(Self.gradient + "?width=64&format=webp", head: true)
        #expect(head.status == 200 && head.body.isEmpty && head.etag == miss.etag)
        #expect(head.headers["content-length"] == String(miss.body.count))
        let current = try daemon.render(
            Self.gradient + "?width=64&format=webp", headers: ["If-None-Match: \(miss.etag ?? "")"])
        #expect(current.status == 304 && current.body.isEmpty)
        #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="miss",code="ok"}"#) == 1)
        #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="hit",code="ok"}"#) == 2)
        #expect(try daemon.metric("variantd_renders_total") == 1)

        // The declared variant is the 50th; the 51st distinct transform is refused, the 50 still answer.
        #expect(try daemon.render(Self.gradient + "?variant=thumb").status == 200)
        let refused = try daemon.render(Self.gradient + "?width=71")
        #expect(refused.status == 429 && refused.error == "too_many_variants", "\(refused.json)")
        #expect(try daemon.render(Self.gradient + "?width=64&format=webp").etag == miss.etag)

        // Overwritten in place: the next request renders the new bytes, under their own checksum.
        let replacement = try picture("gradient-alpha.png")
        try client.put(
            bucket: bucket, key: "objects/pics/2026/gradient.jpg", bytes: replacement,
            contentType: "image/png")
        let after = try daemon.render(Self.gradient + "?width=64&format=webp")
        #expect(after.status == 200 && after.etag != miss.etag && after.body != miss.body)
        var renewed: [S3Object] = []
        let newDirectory = RenditionKey.directory(ofSource: SHA256.hex(replacement))
        try client.list(bucket: bucket, prefix: "renditions/\(newDirectory)/") { renewed += $0 }
        #expect(renewed.map(\.size) == [after.body.count])
        #expect(try daemon.render(Self.gradient + "?width=71").status == 200)

        let missing = try daemon.render("/v1/render/pics/2026/absent.jpg?width=64")
        #expect(missing.status == 404 && missing.error == "not_found")

        // A hit needs the store: while it is down the answer is busy, with the time to come back.
        server.kill()
        let busy = try daemon.render(Self.gradient + "?width=64&format=webp")
        #expect(busy.status == 503 && busy.error == "transform_busy", "\(busy.json)")
        #expect(busy.headers["retry-after"] != nil)
        try server.start()
        #expect(try daemon.render(Self.gradient + "?width=64&format=webp").etag == after.etag)
    }

    /// What each request costs the store, from the daemon's own count of them: a miss is one HEAD and one
    /// GET of the source, one listing of its renditions and one PUT, answered from the bytes made (and kept
    /// in the rendition cache); a hit, with no window trusting the source, is a HEAD of the source alone.
    @Test func aMissAndAHitStayWithinTheirStoreRequests() throws {
        let (server, _, bucket, original) = try bucketWithGradient()
        let fixture = try fixture()
        defer { fixture.remove() }
        let daemon = try start(
            fixture, root: "s3://\(bucket)/objects", out: "s3://\(bucket)/renditions", server: server)
        func requests() throws -> [String: Double] {
            var counts: [String: Double] = [:]
            for operation in ["head", "get", "put", "list"] {
                counts[operation] = try daemon.metric(
                    line: "variantd_s3_requests_total{operation=\"\(operation)\"}")
            }
            counts["bytes"] = try daemon.metric(line: "variantd_s3_received_bytes_total")
            return counts
        }

        let miss = try daemon.render(Self.gradient + "?width=64&format=webp")
        #expect(miss.status == 200, "\(miss.json)")
        let afterMiss = try requests()
        #expect(afterMiss["head"] == 1 && afterMiss["get"] == 1 && afterMiss["list"] == 1)
        #expect(afterMiss["put"] == 1)
        // The source and the listing's few hundred bytes of XML; never the rendition read back.
        let missBytes = try #require(afterMiss["bytes"])
        #expect(missBytes >= Double(original.count) && missBytes < Double(original.count + miss.body.count))

        for _ in 0..<3 {
            let hit = try daemon.render(Self.gradient + "?width=64&format=webp")
            #expect(hit.status == 200 && hit.body == miss.body)
        }
        let afterHits = try requests()
        #expect(afterHits["head"] == 4 && afterHits["get"] == 1 && afterHits["list"] == 1)
        #expect(afterHits["put"] == 1)
        #expect(afterHits["bytes"] == missBytes)
    }

    /// A rendition from a bucket is answered in parts as one from a folder is: a small one from the bytes
    /// downloaded, one over the in-memory limit from its spool file (no rendition cache, so every hit
    /// downloads).
    @Test func answersRangesFromBytesAndFromSpoolFiles() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let fixture = try fixture()
        defer { fixture.remove() }
        try fixture.makeLargePicture()
        let noise = [UInt8](try Data(contentsOf: fixture.root.appendingPathComponent("up/large.jpg")))
        try client.put(
            bucket: bucket, key: "objects/pics/2026/gradient.jpg", bytes: try picture("gradient.jpg"),
            contentType: "image/jpeg")
        try client.put(bucket: bucket, key: "objects/pics/noise.jpg", bytes: noise, contentType: "image/jpeg")
        let daemon = try start(
            fixture, root: "s3://\(bucket)/objects", out: "s3://\(bucket)/renditions", server: server,
            extra: ["--rendition-cache-size", "0"])
        for target in [
            Self.gradient + "?width=320&format=png", "/v1/render/pics/noise.jpg?width=1200&format=png",
        ] {
            let first = try daemon.render(target, headers: ["Range: bytes=0-99"])
            let whole = try daemon.render(target)
            try #require(whole.status == 200 && whole.body.count > 1000, "\(whole.json)")
            try ByteRangeTests().expectParts(of: whole, first: first, daemon: daemon, target: target)
        }
        let large = try daemon.render("/v1/render/pics/noise.jpg?width=1200&format=png", head: true)
        #expect(Int(large.headers["content-length"] ?? "") ?? 0 > S3RenditionStore.inMemoryBody)
    }

    /// A first miss downloads the source once: the bytes hashed go on to the decoder; a remembered checksum,
    /// or a source over the hand-over limit, comes without bytes.
    @Test func theBytesDownloadedToHashASourceAreHandedOn() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let bytes = try picture("gradient.jpg")
        try client.put(bucket: bucket, key: "objects/a.jpg", bytes: bytes, contentType: "image/jpeg")
        let large = [UInt8](repeating: 7, count: HashedSource.handOverLimit + 1)
        try client.put(bucket: bucket, key: "objects/large.bin", bytes: large, contentType: "image/jpeg")
        let sources = try StoreLocation("s3://\(bucket)/objects").renderSources(
            environment: server.environment(), maxBytes: 64 << 20)

        let first = try sources.checksum(of: "a.jpg")
        #expect(first.checksum == SHA256.hex(bytes) && first.bytes.flatMap(Self.inMemory) == bytes)
        let again = try sources.checksum(of: "a.jpg")
        #expect(again.checksum == first.checksum && again.bytes == nil)
        let overLimit = try sources.checksum(of: "large.bin")
        #expect(overLimit.checksum == SHA256.hex(large) && overLimit.bytes == nil)
    }

    /// The bytes handed on in memory, with the checksum they were hashed to.
    private static func inMemory(_ handed: RenditionSource.Bytes) -> [UInt8]? {
        guard case .inHand(.bytes(let bytes), let checksum) = handed, checksum == SHA256.hex(bytes) else {
            return nil
        }
        return bytes
    }

    @Test func mixesAFolderOfSourcesWithABucketOfRenditionsAndTheOtherWayRound() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let bytes = try picture("gradient.jpg")
        let fixture = try fixture()
        defer { fixture.remove() }
        let folder = fixture.directory.appendingPathComponent("objects/pics/2026")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(bytes).write(to: folder.appendingPathComponent("gradient.jpg"))
        try client.put(
            bucket: bucket, key: "objects/pics/2026/gradient.jpg", bytes: bytes, contentType: "image/jpeg")
        let renditionFolder = fixture.directory.appendingPathComponent("renditions-folder").path

        var etags: [String?] = []
        for (root, out) in [
            (fixture.directory.appendingPathComponent("objects").path, "s3://\(bucket)/renditions"),
            ("s3://\(bucket)/objects", renditionFolder),
        ] {
            let daemon = try start(fixture, root: root, out: out, server: server)
            let first = try daemon.render(Self.gradient + "?width=48&format=png")
            let second = try daemon.render(Self.gradient + "?width=48&format=png")
            #expect(first.status == 200 && second.status == 200, "\(root) → \(out): \(first.json)")
            #expect(second.body == first.body && second.etag == first.etag)
            #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="hit",code="ok"}"#) == 1)
            etags.append(first.etag)
            daemon.kill()
        }
        #expect(etags[0] != nil && etags[0] == etags[1])
        let directory = RenditionKey.directory(ofSource: SHA256.hex(bytes))
        var stored: [S3Object] = []
        try client.list(bucket: bucket, prefix: "renditions/\(directory)/") { stored += $0 }
        #expect(stored.count == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: renditionFolder + "/" + directory)
        #expect(files.count == 1)
    }

    /// `GET /v1/info/…` of an object in a bucket: one HEAD and one GET of the source the first time, and a
    /// HEAD alone after it (no window trusts the source), with nothing measured again.
    @Test func infoDownloadsASourceOnce() throws {
        let (server, _, bucket, original) = try bucketWithGradient()
        let fixture = try fixture()
        defer { fixture.remove() }
        let daemon = try start(
            fixture, root: "s3://\(bucket)/objects", out: "s3://\(bucket)/renditions", server: server)
        func requests(_ operation: String) throws -> Double {
            try daemon.metric(line: "variantd_s3_requests_total{operation=\"\(operation)\"}")
        }
        let info = try daemon.render("/v1/info/pics/2026/gradient.jpg")
        #expect(info.status == 200, "\(info.json)")
        #expect(info.json["checksumSha256"] as? String == SHA256.hex(original))
        #expect(info.json["width"] as? Int == 320 && info.json["dominantColour"] is String)
        #expect(try requests("head") == 1 && requests("get") == 1)
        let again = try daemon.render("/v1/info/pics/2026/gradient.jpg")
        #expect(again.status == 200 && again.body == info.body)
        #expect(try requests("head") == 2 && requests("get") == 1)
        #expect(try daemon.metric(line: "variantd_info_measured_total") == 1)
        let missing = try daemon.render("/v1/info/pics/2026/missing.jpg")
        #expect(missing.status == 404 && missing.error == "not_found")
    }
}
