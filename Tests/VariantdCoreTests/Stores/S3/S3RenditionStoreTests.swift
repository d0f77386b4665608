import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The rendition store in a real SeaweedFS: content-addressed keys written, found again by source.
@Suite(.seaweedServer, .seaweedInstalled)
struct S3RenditionStoreTests {
    @Test func writesAndFindsTheRenditionsOfASource() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let store = S3RenditionStore(client: client, location: try S3Location("s3://\(bucket)/renditions"))
        let checksum = SHA256.hex([1, 2, 3])
        let webp = [UInt8](
            try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.webp")))
        let key = RenditionKey.make(
            sourceChecksum: checksum, specKey: "0123456789abcdef", fileExtension: "webp")
        let other = RenditionKey.make(
            sourceChecksum: checksum, specKey: "fedcba9876543210", fileExtension: "jpg")
        // A damaged rendition found in the store is written again by the pipeline: the write replaces it.
        try store.write([
            RenditionFile(key: key, bytes: [0, 0, 0]), RenditionFile(key: other, bytes: [9, 9]),
        ])
        try store.write([RenditionFile(key: key, bytes: webp)])
        #expect(try client.read(bucket: bucket, key: "renditions/\(key)", maxBytes: webp.count) == webp)

        let found = store.stored(sourceChecksum: checksum, specKeys: ["0123456789abcdef"])
        #expect(found == [RenditionFile(key: key, bytes: webp)])
        #expect(store.stored(sourceChecksum: SHA256.hex([4]), specKeys: ["0123456789abcdef"]).isEmpty)
    }

    /// A rendition to send comes from one GET: a small one in memory, a large one in a spool file with no
    /// name (unlinked before it is read) whose bytes and checksum come back from it; a missing key is nil.
    @Test func aRenditionToSendIsHeldInMemoryOrInASpoolFileWithNoName() throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let store = S3RenditionStore(client: client, location: try S3Location("s3://\(bucket)/renditions"))
        let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let key = RenditionKey.make(
            sourceChecksum: SHA256.hex([5]), specKey: "0123456789abcdef", fileExtension: "png")
        try store.write([RenditionFile(key: key, bytes: bytes)])

        guard case .spooled(let file)? = try store.body(of: key) else {
            Issue.record("expected a spooled body")
            return
        }
        #expect(file.count == bytes.count)
        #expect(try file.read() == bytes)
        #expect(try file.sha256() == SHA256.hex(bytes))
        let target = try FileManager.default.destinationOfSymbolicLink(
            atPath: "/proc/self/fd/\(file.descriptor.rawValue)")
        #expect(target.contains("variantd-rendition-") && target.hasSuffix(" (deleted)"), "\(target)")
        let small = RenditionKey.make(
            sourceChecksum: SHA256.hex([5]), specKey: "fedcba9876543210", fileExtension: "png")
        let smallBytes = Array(bytes.prefix(S3RenditionStore.inMemoryBody))
        try store.write([RenditionFile(key: small, bytes: smallBytes)])
        #expect(try store.body(of: small) == .bytes(smallBytes))
        #expect(
            try store.body(
                of: RenditionKey.make(
                    sourceChecksum: SHA256.hex([6]), specKey: "0123456789abcdef", fileExtension: "png"))
                == nil)
    }
}
