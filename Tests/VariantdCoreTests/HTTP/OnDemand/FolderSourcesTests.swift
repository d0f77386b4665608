import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// A source's checksum remembered in a folder: what a hit's `stat` stands for.
@Suite struct FolderSourcesTests {
    /// `a/./b.jpg` and `a//b.jpg` name the file `a/b.jpg` names; each kept as a name of its own let anyone
    /// make the daemon read and hash a public picture again for every spelling, and remember 65,536 of them.
    @Test func spellingsOfOnePathShareItsChecksum() throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("pics/2026")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"),
            to: folder.appendingPathComponent("g.jpg"))
        // A file changed in the last whole second of the clock is hashed every time.
        Thread.sleep(forTimeInterval: 2.1)
        let sources = FolderSources(try ObjectFolder(root.path))
        let checksum = try sources.checksum(of: "pics/2026/g.jpg").checksum
        #expect(sources.rememberedChecksum(of: "pics/2026/g.jpg") == checksum)
        for spelling in ["pics/2026/./g.jpg", "pics//2026/g.jpg", "pics/./2026//./g.jpg"] {
            #expect(sources.rememberedChecksum(of: spelling) == checksum, "\(spelling)")
        }
        #expect(sources.rememberedChecksum(of: "pics/2026/g.jpg/") == nil, "a file is not a folder")
        #expect(sources.rememberedChecksum(of: "pics/2026/h.jpg") == nil)
    }
}
