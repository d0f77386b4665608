import Testing

@testable import VariantdCore

/// Version tokens: unambiguous, bounded.
@Suite struct StorageChangeVersionTests {
    @Test func aValueCannotForgeAnotherField() {
        let forged = StorageChange.version(.written, [("etag", "a,size=1")])
        #expect(forged == "written:etag=a%2Csize=1")
        #expect(forged != StorageChange.version(.written, [("etag", "a"), ("size", "1")]))
    }

    @Test func anAbsentFieldIsLeftOutWithItsName() {
        #expect(StorageChange.version(.removed, [("mtime", nil), ("md5", "AA==")]) == "deleted:md5=AA==")
    }

    @Test func aLongTokenIsItsDigest() {
        let long = StorageChange.version(.written, [("etag", String(repeating: "e", count: 300))])
        #expect(long.hasPrefix("sha256:") && long.utf8.count == 71)
        #expect(long != StorageChange.version(.written, [("etag", String(repeating: "e", count: 301))]))
        #expect(
            StorageChange.version(.written, [("etag", String(repeating: "e", count: 180))]).utf8.count == 193)
    }
}
