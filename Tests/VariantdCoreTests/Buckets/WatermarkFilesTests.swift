import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// A watermark's file is read only from inside the declarations' folder, symbolic links resolved.
@Suite struct WatermarkFilesTests {
    @Test func readsOnlyRegularFilesInsideTheFolder() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let buckets = directory.appendingPathComponent("buckets")
        let files = FileManager.default
        try files.createDirectory(
            at: buckets.appendingPathComponent("marks"), withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: buckets.appendingPathComponent("marks/logo.png"))
        try Data([4, 5, 6]).write(to: directory.appendingPathComponent("secret.png"))
        try files.createSymbolicLink(
            at: buckets.appendingPathComponent("escape.png"),
            withDestinationURL: directory.appendingPathComponent("secret.png"))
        try files.createSymbolicLink(
            at: buckets.appendingPathComponent("inside.png"),
            withDestinationURL: buckets.appendingPathComponent("marks/logo.png"))
        try Data(count: Watermark.maximumFileBytes + 1).write(to: buckets.appendingPathComponent("huge.png"))
        let read = WatermarkFiles.reader(folder: buckets.path)

        #expect(try read("marks/logo.png") == [1, 2, 3])
        #expect(try read("inside.png") == [1, 2, 3])
        for (file, message) in [
            ("escape.png", "a path that leads outside it"), ("missing.png", "no such file"),
            ("marks", "not a regular file"),
            ("huge.png", "a file of \(Watermark.maximumFileBytes + 1) bytes"),
        ] {
            #expect(throws: VariantsError(.invalidTransform, message)) { try read(file) }
        }
    }

    /// A declaration file names its watermark relative to its own folder; a bad file is a usage error that
    /// names the field.
    @Test func aDeclarationFileReadsItsWatermarks() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let declaration = directory.appendingPathComponent("b.json")
        try Data(#"{"name": "b", "watermarks": {"logo": {"file": "logo.png"}}}"#.utf8).write(to: declaration)
        #expect(throws: UsageError.self) { try BucketDeclarationFile.read(declaration.path) }
        try Data("not a png at all, not a png at all".utf8).write(
            to: directory.appendingPathComponent("logo.png"))
        do {
            _ = try BucketDeclarationFile.read(declaration.path)
            Issue.record("a file that is not a PNG was taken")
        } catch {
            #expect(error.message.contains("watermarks.logo.file: expected a PNG file"), "\(error.message)")
        }
    }
}
