import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The bucket declarations of a directory: parsed once, reloaded only when the files change.
@Suite struct BucketRegistryTests {
    private func declaration(_ name: String, width: Int) -> String {
        #"{"name": "\#(name)", "variants": {"v": {"width": \#(width)}}}"#
    }

    @Test func reloadsWhenAFileChangesAndKeepsTheOldOnesOnAnError() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.json")
        try declaration("a", width: 10).write(to: file, atomically: true, encoding: .utf8)
        let registry = try BucketRegistry(directory: directory.path)
        #expect(registry.bucket(named: "a")?.variant(named: "v")?.width == 10)
        #expect(try registry.reloadIfChanged() == nil)

        try declaration("a", width: 200).write(to: file, atomically: true, encoding: .utf8)
        try declaration("b", width: 20).write(
            to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        #expect(try registry.reloadIfChanged() == 2)
        #expect(registry.bucket(named: "a")?.variant(named: "v")?.width == 200)
        #expect(try registry.reloadIfChanged() == nil)

        try "{".write(to: directory.appendingPathComponent("c.json"), atomically: true, encoding: .utf8)
        #expect(throws: UsageError.self) { try registry.reloadIfChanged() }
        #expect(registry.count == 2 && registry.bucket(named: "b") != nil)
    }

    /// A watermark's PNG beside the declarations counts as one of their files: a new logo reloads, and the
    /// bucket's watermark then has the new file's checksum.
    @Test func reloadsWhenAWatermarkChanges() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logo = directory.appendingPathComponent("logo.png")
        func writeLogo(side: Int) throws {
            let vips = Process()
            vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
            vips.arguments = ["black", logo.path, String(side), String(side)]
            try vips.run()
            vips.waitUntilExit()
            try #require(vips.terminationStatus == 0)
        }
        try writeLogo(side: 4)
        let declaration = #"{"name": "a", "watermarks": {"logo": {"file": "logo.png"}}}"#
        try declaration.write(
            to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let registry = try BucketRegistry(directory: directory.path)
        let before = try #require(registry.bucket(named: "a")?.watermarks.first)
        #expect(before.pixelWidth == 4)
        #expect(try registry.reloadIfChanged() == nil)

        try writeLogo(side: 6)
        #expect(try registry.reloadIfChanged() == 1)
        let after = try #require(registry.bucket(named: "a")?.watermarks.first)
        #expect(after.pixelWidth == 6 && after.checksum != before.checksum)
    }

    /// Declarations kept elsewhere and linked in (a Kubernetes ConfigMap volume swaps its `..data` link on
    /// every update; a checkout of a configuration repository): the link itself never changes, its target does.
    @Test func reloadsWhenALinkedDeclarationsTargetChanges() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = FileManager.default
        for (version, width) in [("v1", 10), ("v2", 20)] {
            let folder = directory.appendingPathComponent(version)
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            try declaration("a", width: width).write(
                to: folder.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        }
        try files.createSymbolicLink(atPath: directory.path + "/..data", withDestinationPath: "v1")
        try files.createSymbolicLink(atPath: directory.path + "/a.json", withDestinationPath: "..data/a.json")
        let registry = try BucketRegistry(directory: directory.path)
        #expect(registry.bucket(named: "a")?.variant(named: "v")?.width == 10)

        try files.createSymbolicLink(atPath: directory.path + "/..data.new", withDestinationPath: "v2")
        #expect(rename(directory.path + "/..data.new", directory.path + "/..data") == 0)
        #expect(try registry.reloadIfChanged() == 1)
        #expect(registry.bucket(named: "a")?.variant(named: "v")?.width == 20)
    }

    /// `install -p`, `cp -p` and `rsync -t` keep the modification time of the copy they rename into place;
    /// a new declaration of the same length was then taken for the old one.
    @Test func reloadsWhenAFileIsReplacedKeepingItsSizeAndTime() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.json")
        let copy = directory.appendingPathComponent("a.json.new")
        let time: [FileAttributeKey: Any] = [.modificationDate: Date(timeIntervalSince1970: 1_767_225_600)]
        try declaration("a", width: 10).write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes(time, ofItemAtPath: file.path)
        let registry = try BucketRegistry(directory: directory.path)

        try declaration("a", width: 20).write(to: copy, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes(time, ofItemAtPath: copy.path)
        #expect(rename(copy.path, file.path) == 0)
        #expect(try registry.reloadIfChanged() == 1)
        #expect(registry.bucket(named: "a")?.variant(named: "v")?.width == 20)
    }

    /// The worker checks every second and logs each failed reload: an invalid edit left in place wrote
    /// `buckets_reload_failed` 86,400 times a day. It is reported once, and again only when the files change.
    @Test func anInvalidEditFailsOnceUntilTheFilesChangeAgain() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try declaration("a", width: 10).write(
            to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        let registry = try BucketRegistry(directory: directory.path)
        let broken = directory.appendingPathComponent("b.json")
        try "{".write(to: broken, atomically: true, encoding: .utf8)
        #expect(throws: UsageError.self) { try registry.reloadIfChanged() }
        #expect(try registry.reloadIfChanged() == nil)
        #expect(registry.count == 1)

        try declaration("b", width: 20).write(to: broken, atomically: true, encoding: .utf8)
        #expect(try registry.reloadIfChanged() == 2)
    }
}
