import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// `variantd serve` reading sources from and writing renditions to a real SeaweedFS.
@Suite(
    .serialized, .seaweedServer,
    .seaweedInstalled
)
struct ServeOverS3Tests {
    @Test func servesFromTheStoreAndAnswersBusyWhileItIsDown() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let picture = try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"))
        try client.put(
            bucket: bucket, key: "objects/up/a b+é.jpg", bytes: [UInt8](picture), contentType: "image/jpeg")
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        // No --quarantine: with renditions in object storage it lives in the data folder.
        let data = fixture.directory.appendingPathComponent("data")
        let daemon = try DaemonProcess(
            [
                "--listen", "127.0.0.1:0", "--root", "s3://\(bucket)/objects", "--out",
                "s3://\(bucket)/renditions", "--buckets", fixture.buckets.path, "--slots", "1",
            ],
            directory: fixture.directory,
            environment: server.environment().merging(["VARIANTD_DATA_DIR": data.path]) { $1 })
        #expect(
            FileManager.default.fileExists(atPath: data.appendingPathComponent("quarantine.sqlite3").path))
        #expect(
            !FileManager.default.fileExists(atPath: "s3:"), "a quarantine path made of the s3:// location")

        let reply = try daemon.job(ServeFixture.job("up/a b+é.jpg"))
        #expect(reply.status == 200, "\(reply.text)")
        let renditions = try #require(reply.json["renditions"] as? [String: [String: Any]])
        #expect(renditions.count == 3)
        for rendition in renditions.values {
            let key = try #require(rendition["key"] as? String)
            #expect(try client.size(bucket: bucket, key: "renditions/\(key)") == rendition["size"] as? Int)
        }
        let missing = try daemon.job(ServeFixture.job("up/missing.jpg"))
        #expect(missing.status == 404 && missing.error == "not_found")

        server.kill()
        let busy = try daemon.job(ServeFixture.job("up/a b+é.jpg"))
        #expect(busy.status == 503 && busy.error == "transform_busy", "\(busy.text)")
        #expect(!busy.retryAfter.isEmpty)
        #expect(!busy.text.contains(SeaweedServer.secretKey))
        try server.start()
        #expect(try daemon.job(ServeFixture.job("up/a b+é.jpg")).status == 200)
    }
}
