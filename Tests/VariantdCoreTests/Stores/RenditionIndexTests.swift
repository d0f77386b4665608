import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The one index of what is stored for each source: what hits find, what the budget counts, and what
/// forgetting a source or removing a rendition lets go of.
@Suite struct RenditionIndexTests {
    private static let source = "ab" + String(repeating: "1", count: 62)
    private static let other = "cd" + String(repeating: "2", count: 62)

    private static func key(_ specKey: String, of source: String = source) -> String {
        RenditionKey.make(sourceChecksum: source, specKey: specKey, fileExtension: "webp")
    }

    @Test func findsARenditionByItsSourceAndSpecKey() {
        let index = RenditionIndex()
        index.remember(Self.key("00000000000000a0"), checksum: "sum")
        let found = index.rendition(ofSource: Self.source, specKey: "00000000000000a0")
        #expect(found?.key == Self.key("00000000000000a0") && found?.checksum == "sum")
        #expect(index.rendition(ofSource: Self.other, specKey: "00000000000000a0") == nil)
        #expect(index.rendition(ofSource: Self.source, specKey: "00000000000000a1") == nil)
        index.remember("not/a key")
        #expect(index.rendition("not/a key") == nil)
    }

    @Test func forgettingASourceLetsGoOfItsRenditionsAndTheirBytesOnly() {
        let index = RenditionIndex()
        index.use(
            ofSource: Self.source, specKey: "00000000000000a0", key: Self.key("00000000000000a0"), size: 100)
        index.remember(Self.key("00000000000000a1"))
        index.use(
            ofSource: Self.other, specKey: "00000000000000a0",
            key: Self.key("00000000000000a0", of: Self.other),
            size: 30)
        #expect(index.counted == (bytes: 130, renditions: 2))

        index.forget(sourceChecksum: Self.source)
        #expect(index.rendition(Self.key("00000000000000a0")) == nil)
        #expect(index.rendition(Self.key("00000000000000a1")) == nil)
        #expect(index.rendition(Self.key("00000000000000a0", of: Self.other)) != nil)
        #expect(index.counted == (bytes: 30, renditions: 1))
    }

    @Test func aUseReplacesTheSizeCountedBefore() {
        let index = RenditionIndex()
        let key = Self.key("00000000000000a0")
        #expect(index.use(ofSource: Self.source, specKey: "00000000000000a0", key: key, size: 100) == 100)
        #expect(index.use(ofSource: Self.source, specKey: "00000000000000a0", key: key, size: 120) == 120)
        #expect(index.found(key, size: 500, stamp: 1) == 120, "a use seen here is newer than the file's date")
        index.remove(key)
        #expect(index.counted == (bytes: 0, renditions: 0))
    }

    @Test func theLeastRecentlyUsedGoFirstAndKeptSpecKeysNever() {
        let index = RenditionIndex()
        for (specKey, stamp) in [("00000000000000a0", 3), ("00000000000000a1", 1), ("00000000000000a2", 2)] {
            index.found(Self.key(specKey), size: 100, stamp: Int64(stamp))
        }
        #expect(index.leastRecentlyUsed(beyond: 300, keeping: []) == [])
        #expect(
            index.leastRecentlyUsed(beyond: 150, keeping: []) == [
                Self.key("00000000000000a1"), Self.key("00000000000000a2"),
            ])
        #expect(
            index.leastRecentlyUsed(beyond: 150, keeping: ["00000000000000a1"])
                == [Self.key("00000000000000a2"), Self.key("00000000000000a0")])
    }

    @Test func aFullIndexLetsGoOfWhatTheBudgetDoesNotCount() {
        let index = RenditionIndex(capacity: 4)
        let counted = Self.key("00000000000000f0")
        index.use(ofSource: Self.source, specKey: "00000000000000f0", key: counted, size: 10)
        for number in 0..<4 { index.remember(Self.key("00000000000000b\(number)")) }
        #expect(index.rendition(Self.key("00000000000000b3")) != nil)
        index.remember(Self.key("00000000000000c0"))
        #expect(index.rendition(Self.key("00000000000000b0")) == nil, "the uncounted were let go")
        #expect(index.rendition(Self.key("00000000000000c0")) != nil)
        #expect(index.rendition(counted)?.use?.size == 10)
        #expect(index.counted == (bytes: 10, renditions: 1))
    }

    @Test func aFolderFilesChecksumIsReadOnceWhileItKeepsItsIdentity() throws {
        let directory = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = Self.key("00000000000000a0")
        let path = directory + "/rendition.webp"
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        #expect(index(reading: key, at: path).checksum == SHA256.hex(Array("first".utf8)))

        let index = RenditionIndex()
        index.remember(key, checksum: "made by the child", identity: FileIdentity(path: path))
        #expect(index.checksum(of: key, file: path) == "made by the child")
        try FileManager.default.removeItem(atPath: path)
        try Data("second!".utf8).write(to: URL(fileURLWithPath: path))
        #expect(index.checksum(of: key, file: path) == SHA256.hex(Array("second!".utf8)))
        #expect(index.checksum(of: key, file: directory + "/missing") == nil)
    }

    private func index(reading key: String, at path: String) -> (checksum: String?, index: RenditionIndex) {
        let index = RenditionIndex()
        return (index.checksum(of: key, file: path), index)
    }
}
