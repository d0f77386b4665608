import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// Hits over a real SeaweedFS that ask the store nothing: the source's identity trusted for `--source-ttl`,
/// the rendition sent from the local rendition cache. Counted with the daemon's own count of store requests;
/// the windows are long (30 s) where a hit must still find them open, and short (1 s, then polled) where
/// one must have passed, so no outcome depends on the machine's speed.
@Suite(.serialized, .seaweedServer, .seaweedInstalled)
struct RenderHitsOverS3Tests {
    private static let gradient = "/v1/render/pics/2026/gradient.jpg"
    private static let key = "objects/pics/2026/gradient.jpg"

    private func fixture() throws -> ServeFixture {
        let fixture = try ServeFixture()
        let pics = #"{"name": "pics", "public": true, "variants": {"thumb": {"width": 40, "height": 40}}}"#
        try Data(pics.utf8).write(to: fixture.buckets.appendingPathComponent("pics.json"))
        return fixture
    }

    private func start(_ fixture: ServeFixture, bucket: String, ttl: Int, server: SeaweedServer) throws
        -> DaemonProcess
    {
        try DaemonProcess(
            [
                "--listen", "127.0.0.1:0", "--root", "s3://\(bucket)/objects", "--out",
                "s3://\(bucket)/renditions", "--buckets", fixture.buckets.path, "--queue-depth", "8",
                "--workers", "0", "--source-ttl", String(ttl),
            ],
            directory: fixture.directory, environment: server.environment())
    }

    private func picture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/" + name)))
    }

    /// Requests the store answered, all operations together.
    private func storeRequests(_ daemon: DaemonProcess) throws -> Double {
        var total = 0.0
        for operation in S3Traffic.Operation.allCases {
            total += try daemon.metric(
                line: "variantd_s3_requests_total{operation=\"\(operation.rawValue)\"}")
        }
        return total
    }

    @Test func hitsWithinTheWindowAskTheStoreNothingAndOutliveIt() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        try client.put(
            bucket: bucket, key: Self.key, bytes: try picture("gradient.jpg"), contentType: "image/jpeg")
        let fixture = try fixture()
        defer { fixture.remove() }
        let daemon = try start(fixture, bucket: bucket, ttl: 30, server: server)
        let target = Self.gradient + "?width=64&format=webp"

        let miss = try daemon.render(target)
        #expect(miss.status == 200 && miss.etag == "\"\(SHA256.hex(miss.body))\"", "\(miss.json)")
        let afterMiss = try storeRequests(daemon)
        #expect(afterMiss > 0)
        for _ in 0..<20 {
            let hit = try daemon.render(target)
            #expect(hit.status == 200 && hit.etag == miss.etag && hit.body == miss.body)
        }
        let range = try daemon.render(target, headers: ["Range: bytes=0-9"])
        #expect(range.status == 206 && range.body == Array(miss.body.prefix(10)))
        #expect(try storeRequests(daemon) == afterMiss, "no hit asked the store")
        #expect(try daemon.metric(line: #"variantd_render_requests_total{outcome="hit",code="ok"}"#) == 21)
        #expect(try daemon.metric(line: "variantd_rendition_cache_hits_total") == 21)
        #expect(try daemon.metric(line: "variantd_rendition_cache_files") == 1)
        #expect(try daemon.metric(line: "variantd_rendition_cache_bytes") == Double(miss.body.count))

        // The store gone: a hit is still answered from the cache within the window; a miss cannot be.
        server.kill()
        let meanwhile = try daemon.render(target)
        #expect(meanwhile.status == 200 && meanwhile.etag == miss.etag && meanwhile.body == miss.body)
        let unknown = try daemon.render(Self.gradient + "?width=65&format=webp")
        #expect(unknown.status == 503 && unknown.error == "transform_busy", "\(unknown.json)")
        try server.start()

        // A storage event for the object ends its window and forgets its identity at once: the next hit asks
        // the store for the object again (a HEAD, and a GET to hash it), and its rendition still comes from
        // the cache.
        let heads = try daemon.metric(line: #"variantd_s3_requests_total{operation="head"}"#)
        let gets = try daemon.metric(line: #"variantd_s3_requests_total{operation="get"}"#)
        let event = """
            {"Records":[{"eventName":"s3:ObjectCreated:Put","s3":{"bucket":{"name":"\(bucket)"},
            "object":{"key":"\(Self.key)","size":1,"eTag":"x","sequencer":"1"}}}]}
            """
        let accepted = try daemon.send("POST", "/v1/events", body: Array(event.utf8))
        #expect(accepted.status == 202, "\(accepted.text)")
        let afterEvent = try daemon.render(target)
        #expect(afterEvent.status == 200 && afterEvent.etag == miss.etag)
        #expect(try daemon.metric(line: #"variantd_s3_requests_total{operation="head"}"#) == heads + 1)
        #expect(try daemon.metric(line: #"variantd_s3_requests_total{operation="get"}"#) == gets + 1)
        #expect(try daemon.metric(line: "variantd_rendition_cache_hits_total") == 23)
    }

    @Test func anOverwrittenSourceIsServedNewOnceTheWindowHasPassed() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        try client.put(
            bucket: bucket, key: Self.key, bytes: try picture("gradient.jpg"), contentType: "image/jpeg")
        let fixture = try fixture()
        defer { fixture.remove() }
        let daemon = try start(fixture, bucket: bucket, ttl: 1, server: server)
        let target = Self.gradient + "?width=64&format=webp"
        let old = try daemon.render(target)
        #expect(old.status == 200, "\(old.json)")

        let replacement = try picture("gradient-alpha.png")
        try client.put(bucket: bucket, key: Self.key, bytes: replacement, contentType: "image/png")
        let deadline = ContinuousClock.now + .seconds(60)
        var current = try daemon.render(target)
        while current.etag == old.etag, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            current = try daemon.render(target)
        }
        #expect(current.status == 200 && current.etag != old.etag && current.body != old.body)
        var stored: [S3Object] = []
        let directory = RenditionKey.directory(ofSource: SHA256.hex(replacement))
        try client.list(bucket: bucket, prefix: "renditions/\(directory)/") { stored += $0 }
        #expect(stored.map(\.size) == [current.body.count], "rendered from the new bytes")
        // Served new from then on.
        #expect(try daemon.render(target).etag == current.etag)
    }
}
