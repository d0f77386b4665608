import Foundation
import Testing
import VariantdTestSupport

@testable import Variants

/// The file-system rendition store: what it offers for reuse, all-or-none writes, and the sweep of
/// unfinished files left by writers that died.
@Suite struct RenditionFolderTests {
    private let root = FileManager.default.temporaryDirectory
        .appendingPathComponent("variantd-renditions-\(UUID().uuidString)").path

    private let checksum = String(repeating: "ab", count: 32)

    @Test func storedOffersOnlyTheAskedSpecKeysOfOneSource() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try RenditionFolder(root: root)
        let wanted = RenditionKey.make(
            sourceChecksum: checksum, specKey: "0123456789abcdef", fileExtension: "webp")
        let other = RenditionKey.make(
            sourceChecksum: checksum, specKey: "fedcba9876543210", fileExtension: "jpg")
        try store.write([
            RenditionFile(key: wanted, bytes: [1, 2, 3]), RenditionFile(key: other, bytes: [4]),
        ])
        #expect(wanted == "ab/\(checksum)/0123456789abcdef.webp")

        let stored = store.stored(sourceChecksum: checksum, specKeys: ["0123456789abcdef"])
        #expect(stored == [RenditionFile(key: wanted, bytes: [1, 2, 3])])
        #expect(
            store.stored(sourceChecksum: String(repeating: "cd", count: 32), specKeys: ["0123456789abcdef"])
                .isEmpty)
    }

    @Test func aFailedWriteLeavesNoneOfItsFiles() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try RenditionFolder(root: root)
        let first = RenditionKey.make(
            sourceChecksum: checksum, specKey: "0123456789abcdef", fileExtension: "png")
        // A directory where the second file's directory must go makes its write fail.
        try Data().write(to: URL(fileURLWithPath: root + "/cd"))
        let second = "cd/x/0123456789abcdef.png"
        #expect(throws: VariantsError.self) {
            try store.write([RenditionFile(key: first, bytes: [1]), RenditionFile(key: second, bytes: [2])])
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/" + first))
    }

    /// A rendition stored earlier (by an earlier job of the same bytes, or one running beside this one) was
    /// already reported: a failed write that names it again must not take it away.
    @Test func aFailedWriteKeepsTheFilesThatWereThereBefore() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try RenditionFolder(root: root)
        let first = RenditionKey.make(
            sourceChecksum: checksum, specKey: "0123456789abcdef", fileExtension: "png")
        try store.write([RenditionFile(key: first, bytes: [1])])
        try Data().write(to: URL(fileURLWithPath: root + "/cd"))
        #expect(throws: VariantsError.self) {
            try store.write([
                RenditionFile(key: first, bytes: [1]),
                RenditionFile(key: "cd/x/0123456789abcdef.png", bytes: [2]),
            ])
        }
        #expect(FileManager.default.contents(atPath: root + "/" + first) == Data([1]))
    }

    @Test func openingRemovesOnlyTheUnfinishedFilesOfDeadWriters() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try RenditionFolder(root: root)
        // Process ids are below 2^22 on Linux; this one cannot be running.
        let dead = root + "/.tmp/4194304-left"
        let alive = root + "/.tmp/\(getpid())-writing"
        for path in [dead, alive] { try Data([1]).write(to: URL(fileURLWithPath: path)) }

        _ = try RenditionFolder(root: root)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: alive))
    }

    /// A full file system, as a size-limited tmpfs makes one: the write is `507 insufficient_storage`, not
    /// an internal error, leaves no file behind, and succeeds once there is room again.
    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullDiskIsInsufficientStorageAndLeavesNothing() throws {
        let disk = try SizedTmpfs(at: root, bytes: 256 << 10)
        defer {
            disk.unmount()
            try? FileManager.default.removeItem(atPath: root)
        }
        let store = try RenditionFolder(root: root)
        let key = RenditionKey.make(
            sourceChecksum: checksum, specKey: "0123456789abcdef", fileExtension: "webp")
        let large = RenditionFile(key: key, bytes: [UInt8](repeating: 7, count: 512 << 10))
        let error = try #require(throws: VariantsError.self) { try store.write([large]) }
        #expect(error.code == .insufficientStorage && error.statusCode == 507, "\(error)")
        #expect(error.code.isTransient)
        #expect(store.existing(key) == nil)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root + "/.tmp").isEmpty, "no partial file")

        let small = RenditionFile(key: key, bytes: [UInt8](repeating: 7, count: 16 << 10))
        try store.write([small])
        #expect(store.existing(key) == small.bytes)
    }
}
