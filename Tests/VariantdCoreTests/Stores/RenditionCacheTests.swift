import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The local copies of renditions from object storage: within their budget, least recently used out first,
/// each written whole or not at all, read back after a restart with its checksum, and dropped with their
/// source's renditions.
@Suite struct RenditionCacheTests {
    private static let source = SHA256.hex(Array("source".utf8))
    private static let other = SHA256.hex(Array("other source".utf8))

    /// A rendition of `size` bytes under its own spec key of `source`.
    private func rendition(_ name: String, size: Int = 300, source: String = Self.source) -> StoredRendition {
        let bytes = [UInt8](repeating: name.utf8.first ?? 0, count: size)
        let specKey = String(SHA256.hex(Array(name.utf8)).prefix(16))
        let key = RenditionKey.make(sourceChecksum: source, specKey: specKey, fileExtension: "webp")
        return StoredRendition(key: key, checksum: SHA256.hex(bytes), size: size, body: .bytes(bytes))
    }

    /// The files in the cache's folder, relative to it, but for the unfinished ones' folder.
    private func files(in directory: String) -> Set<String> {
        let all = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        return Set(
            all.filter { path in
                !path.hasPrefix(".incoming")
                    && FileIdentity(path: directory + "/" + path) != nil
            })
    }

    @Test func staysWithinItsBudgetLeastRecentlyUsedOutFirst() throws {
        let directory = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try RenditionCache(directory: directory, budget: 1000)
        let (a, b, c, d, e) = (rendition("a"), rendition("b"), rendition("c"), rendition("d"), rendition("e"))
        for kept in [a, b, c] { #expect(cache.keep(kept)) }
        #expect(cache.snapshot.bytes == 900 && cache.snapshot.files == 3)
        #expect(cache.entry(a.key)?.checksum == a.checksum, "a is now the most recently used")

        #expect(cache.keep(d))
        #expect(cache.entry(b.key) == nil, "b, the least recently used, made room for d")
        #expect(cache.keep(e))
        #expect(cache.entry(c.key) == nil)
        for kept in [a, d, e] { #expect(cache.entry(kept.key)?.size == 300) }
        let snapshot = cache.snapshot
        #expect(snapshot.bytes == 900 && snapshot.files == 3 && snapshot.evictions == 2)
        #expect(files(in: directory) == Set([a, d, e].map { $0.key + "." + $0.checksum }))

        #expect(!cache.keep(rendition("huge", size: 1001)), "alone over the budget")
        #expect(cache.snapshot.bytes == 900 && cache.snapshot.evictions == 2)
    }

    @Test func answersACopyWithItsChecksumAndReadsThemBackAfterARestart() throws {
        let directory = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let a = rendition("a", size: 3000)
        do {
            let cache = try RenditionCache(directory: directory, budget: 1 << 20)
            #expect(cache.open(a.key) == nil)
            #expect(cache.keep(a))
            let copy = try #require(cache.open(a.key))
            guard case .spooled(let file) = copy.body else { throw CacheTestError.notAFile }
            #expect(try file.read() == [UInt8](repeating: UInt8(ascii: "a"), count: 3000))
            #expect(copy.checksum == a.checksum && copy.size == 3000)
            #expect(cache.snapshot.hits == 1 && cache.snapshot.misses == 1)
        }
        // What a write cut short left, and a file that is no copy (no checksum in its name).
        try Data("partial".utf8).write(to: URL(fileURLWithPath: directory + "/.incoming/leftover"))
        let stray = directory + "/" + (a.key as NSString).deletingLastPathComponent + "/stray.webp"
        try Data("stray".utf8).write(to: URL(fileURLWithPath: stray))

        let reopened = try RenditionCache(directory: directory, budget: 1 << 20)
        #expect(reopened.entry(a.key)?.checksum == a.checksum)
        #expect(reopened.snapshot.bytes == 3000 && reopened.snapshot.files == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/.incoming").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: stray))
    }

    @Test func aWriteThatFailsLeavesNothing() throws {
        let directory = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try RenditionCache(directory: directory, budget: 1 << 20)
        // A spool file holding fewer bytes than the rendition claims: its copy breaks off part-way.
        let spool = directory + "/../spool-\(UUID().uuidString)"
        try Data([UInt8](repeating: 1, count: 100)).write(to: URL(fileURLWithPath: spool))
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let held = HeldFile(descriptor: try FileDescriptor.open(spool, .reading), count: 5000)
        var broken = rendition("broken", size: 5000)
        broken.body = .spooled(held)

        #expect(!cache.keep(broken))
        #expect(cache.entry(broken.key) == nil && cache.snapshot.bytes == 0)
        #expect(files(in: directory).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/.incoming").isEmpty)
    }

    @Test func aCopyChangedBehindTheCacheIsLetGo() throws {
        let directory = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try RenditionCache(directory: directory, budget: 1 << 20)
        let a = rendition("a")
        #expect(cache.keep(a))
        let path = try #require(cache.entry(a.key)?.path)
        try FileManager.default.removeItem(atPath: path)
        try Data("other bytes".utf8).write(to: URL(fileURLWithPath: path))
        #expect(cache.open(a.key) == nil)
        #expect(cache.entry(a.key) == nil && cache.snapshot.bytes == 0)
    }

    @Test func forgettingASourceDropsItsCopiesOnly() throws {
        let directory = try TestPaths.temporaryDirectory().path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try RenditionCache(directory: directory, budget: 1 << 20)
        let (a, b, kept) = (rendition("a"), rendition("b"), rendition("c", source: Self.other))
        for rendition in [a, b, kept] { #expect(cache.keep(rendition)) }

        let renditions = IndexedRenditions(
            store: try RenditionFolder(root: directory + "-store"), index: RenditionIndex(), cache: cache)
        defer { try? FileManager.default.removeItem(atPath: directory + "-store") }
        #expect(try renditions.forget(sourceChecksum: Self.source) == 0, "the store itself held none")
        #expect(cache.entry(a.key) == nil && cache.entry(b.key) == nil)
        #expect(cache.entry(kept.key) != nil)
        #expect(cache.snapshot.bytes == 300 && cache.snapshot.files == 1)
        #expect(files(in: directory) == [kept.key + "." + kept.checksum])
    }

    private enum CacheTestError: Error {
        case notAFile
    }
}
