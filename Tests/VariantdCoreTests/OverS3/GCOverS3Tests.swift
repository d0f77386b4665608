import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `variantd gc` with its sources and renditions in a real SeaweedFS. An object's Last-Modified cannot be set
/// back, so every rendition here is young: `--grace 1h` keeps them all, `--grace 0s` takes the orphans.
@Suite(.seaweedServer, .seaweedInstalled)
struct GCOverS3Tests {
    @Test func removesTheRenditionsOfBytesNoObjectHolds() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let sources = ["in/a.jpg": "the bytes of a", "in/odd names/b é.jpg": "the bytes of b"]
        for (key, text) in sources {
            try client.put(bucket: bucket, key: key, bytes: Array(text.utf8), contentType: "image/jpeg")
        }
        func keys(_ text: String, _ names: [String]) -> [String] {
            names.map { "out/" + RenditionKey.directory(ofSource: SHA256.hex(Array(text.utf8))) + "/" + $0 }
        }
        let live = keys("the bytes of a", ["0123456789abcdef.webp"]) + keys("the bytes of b", ["1111.jpg"])
        let orphans = keys("bytes deleted a moment ago", ["0123456789abcdef.webp", "fedcba9876543210.avif"])
        // Not of the store's shape: never a rendition, whatever its age.
        let foreign = ["out/notes.txt", "out/ab/not-a-checksum/x.webp"]
        for key in live + orphans + foreign {
            try client.put(
                bucket: bucket, key: key, bytes: [UInt8](repeating: 7, count: 500), contentType: "image/webp")
        }
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func gc(_ grace: String) async throws -> [String: Any] {
            let run = try await VariantdProcess.run(
                [
                    "gc", "--root", "s3://\(bucket)/in", "--out", "s3://\(bucket)/out", "--grace", grace,
                    "--json",
                    "--data-dir", folder.path,
                ], environment: server.environment())
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        }
        func exists(_ key: String) throws -> Bool {
            do {
                _ = try client.size(bucket: bucket, key: key)
                return true
            } catch  where error.kind == .notFound {
                return false
            }
        }

        let careful = try await gc("1h")
        #expect(careful["removed"] as? Int == 0)
        #expect(careful["keptYoung"] as? Int == 2)
        #expect(careful["keptLive"] as? Int == 2)
        #expect(careful["sourcesHashed"] as? Int == 2)
        for key in live + orphans + foreign { #expect(try exists(key), "\(key)") }

        let eager = try await gc("0s")
        #expect(eager["removed"] as? Int == 2)
        #expect(eager["bytesFreed"] as? Int == 1000)
        #expect(eager["sourcesHashed"] as? Int == 0)
        #expect(eager["sourcesReused"] as? Int == 2)
        for key in orphans { #expect(try !exists(key), "\(key)") }
        for key in live + foreign { #expect(try exists(key), "\(key)") }

        // Overwritten with other bytes, b's object no longer holds the bytes of its renditions.
        try client.put(
            bucket: bucket, key: "in/odd names/b é.jpg", bytes: Array("other bytes".utf8),
            contentType: "image/jpeg")
        let after = try await gc("0s")
        #expect(after["removed"] as? Int == 1)
        #expect(after["sourcesHashed"] as? Int == 1)
        #expect(after["sourcesReused"] as? Int == 1)
        #expect(try exists(live[0]))
        #expect(try !exists(live[1]))
    }
}
