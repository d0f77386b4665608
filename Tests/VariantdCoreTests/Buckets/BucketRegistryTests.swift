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
}
