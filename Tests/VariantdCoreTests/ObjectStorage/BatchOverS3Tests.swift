import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// `variantd batch` with its sources and renditions in a real SeaweedFS.
@Suite(.seaweedServer, .seaweedInstalled)
struct BatchOverS3Tests {
    private static let declaration = TestPaths.samples.appendingPathComponent("buckets/post-images.json").path

    @Test func walksAPrefixStoresEveryRenditionAndResumes() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let pictures = TestPaths.samples.appendingPathComponent("pictures")
        var sources: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: pictures.path) {
            sources["pictures/\(name)"] = [UInt8](try Data(contentsOf: pictures.appendingPathComponent(name)))
        }
        sources["odd names/a b+c é.jpg"] = sources["pictures/gradient.jpg"]
        for (path, bytes) in sources {
            try client.put(
                bucket: bucket, key: "in/\(path)", bytes: bytes, contentType: "application/octet-stream")
        }
        try client.put(bucket: bucket, key: "inside-not-under.jpg", bytes: [1], contentType: "image/jpeg")
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "batch", "--bucket", Self.declaration, "--out", folder.path + "/out", "--renditions",
            "s3://\(bucket)/renditions", "--quiet", "--json", "-j", "2", "s3://\(bucket)/in",
        ]
        let first = try await VariantdProcess.run(arguments, environment: server.environment())
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        #expect(summary?["processed"] as? Int == sources.count)

        let manifest = try String(contentsOfFile: folder.path + "/out/manifest.jsonl", encoding: .utf8)
        let lines = try manifest.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Set(lines.compactMap { $0["path"] as? String }) == Set(sources.keys))
        var checked = 0
        for line in lines {
            for case let rendition as [String: Any] in (line["renditions"] as? [String: Any] ?? [:]).values {
                let key = try #require(rendition["key"] as? String)
                let size = try client.size(bucket: bucket, key: "renditions/\(key)")
                #expect(size == rendition["size"] as? Int, "\(key)")
                checked += 1
            }
        }
        #expect(checked >= 15)
        let good = try #require(lines.first { $0["path"] as? String == "odd names/a b+c é.jpg" })
        #expect(good["width"] as? Int == 320)

        let second = try await VariantdProcess.run(arguments, environment: server.environment())
        #expect(second.status == 0, "\(second.stderr)")
        let again = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
        #expect(again?["skipped"] as? Int == sources.count)
        #expect(again?["processed"] as? Int == 0)
    }

    @Test func aWrongSecretIsReportedAsAnErrorNamingTheLocation() async throws {
        let server = try #require(SeaweedServer.current)
        let bucket = try server.freshBucket()
        try server.client().put(
            bucket: bucket, key: "in/a.jpg",
            bytes: [UInt8](
                try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"))),
            contentType: "image/jpeg")
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "a-wrong-secret-key-that-is-long-enough"
        let run = try await VariantdProcess.run(
            [
                "batch", "--bucket", Self.declaration, "--out", folder.path, "--quiet", "--strict",
                "s3://\(bucket)/in",
            ],
            environment: server.environment(secret: secret))
        #expect(run.status == 1)
        #expect(run.stderr.contains("s3://\(bucket)/in"), "\(run.stderr)")
        #expect(run.stderr.contains("SignatureDoesNotMatch"))
        #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret))
    }
}
