import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The on-demand budget over a rendition store in a real SeaweedFS: what the bucket held before the daemon
/// started is counted from its listing, declared variants and names not of the store's shape left out.
@Suite(.seaweedServer, .seaweedInstalled)
struct OnDemandBudgetOverS3Tests {
    @Test func renditionsListedInTheBucketAreCountedAndTheOldestEvicted() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pics = #"{"name": "pics", "variants": {"thumb": {"width": 40, "height": 40}}}"#
        try Data(pics.utf8).write(to: directory.appendingPathComponent("pics.json"))
        let registry = try BucketRegistry(directory: directory.path)
        let declared = try #require(registry.declaredSpecKeys.first)

        let source = RenditionKey.directory(ofSource: SHA256.hex(Array("some bytes".utf8)))
        let transforms = ["00000000000000a0.webp", "00000000000000a1.webp", "00000000000000a2.webp"]
        for name in transforms + [declared + ".webp"] {
            try client.put(
                bucket: bucket, key: "out/\(source)/\(name)", bytes: [UInt8](repeating: 1, count: 100),
                contentType: "image/webp")
            // Each a later LastModified than the one before, at the store's one-second resolution.
            try await Task.sleep(for: .milliseconds(1100))
        }
        try client.put(bucket: bucket, key: "out/notes.txt", bytes: [1], contentType: "text/plain")

        let location = try S3Location("s3://\(bucket)/out")
        let store = S3RenditionStore(client: client, location: location)
        let index = RenditionIndex()
        let budget = OnDemandBudget(
            budget: 250, index: index, catalog: IndexedRenditions(store: store, index: index, cache: nil),
            registry: registry)
        #expect(try budget.recordStored(inBucket: client, at: location) == 3)
        let deadline = ContinuousClock.now + .seconds(30)
        while budget.snapshot.bytes > budget.budget, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(budget.snapshot == .init(bytes: 200, evictions: 1))
        let remaining = try client.listPage(bucket: bucket, prefix: "out/", after: nil).objects.map(\.key)
        #expect(!remaining.contains("out/\(source)/\(transforms[0])"), "the oldest went")
        for name in transforms.dropFirst() + [declared + ".webp"] {
            #expect(remaining.contains("out/\(source)/\(name)"))
        }
        #expect(remaining.contains("out/notes.txt"))
    }
}
