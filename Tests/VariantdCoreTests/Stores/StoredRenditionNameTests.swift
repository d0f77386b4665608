import Testing

@testable import VariantdCore

/// Only names of the rendition store's own shape are renditions to the walks over a store.
@Suite struct StoredRenditionNameTests {
    private static let checksum = String(repeating: "ab", count: 32)

    @Test func onlyLowercaseHexOfTheRightLengthIsAChecksumOrAPrefix() {
        #expect(StoredRenditionName.isChecksum(Self.checksum))
        #expect(!StoredRenditionName.isChecksum(Self.checksum.uppercased()))
        #expect(!StoredRenditionName.isChecksum(".tmp"))
        #expect(StoredRenditionName.isPrefix("ab"))
        #expect(!StoredRenditionName.isPrefix(".t"))
        #expect(StoredRenditionName.isSource(Self.checksum, under: "ab"))
        #expect(!StoredRenditionName.isSource(Self.checksum, under: "cd"))
    }

    @Test func aKeyIsAFileUnderItsSourcesDirectory() {
        let key = "ab/\(Self.checksum)/00000000000000a0.webp"
        #expect(StoredRenditionName.key(key)?.key == key)
        #expect(StoredRenditionName.key(key)?.source == Self.checksum)
        for other in [
            "ab/\(Self.checksum)/.00000000000000a0.webp", "cd/\(Self.checksum)/x.webp",
            "ab/\(Self.checksum)/",
            "ab/\(Self.checksum)", "notes.txt", ".tmp/ab/\(Self.checksum)/x.webp", "ab/not-a-checksum/x.webp",
        ] {
            #expect(StoredRenditionName.key(other) == nil, "\(other)")
        }
    }
}
