import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The manifest's lines, the keys a resume reads back, and the torn line a crash may leave.
@Suite struct ManifestTests {
    private let declaration = String(repeating: "d", count: 64)
    private let checksum = String(repeating: "c", count: 64)

    private func object(_ line: [UInt8]) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    @Test func metadataLineIsTheDaemonAnswerWithTheDeclaration() throws {
        let metadata = CompletionMetadata(
            bucket: "b", path: "nested/a.jpg", size: 10, contentType: "image/jpeg", checksumSha256: checksum,
            width: 3, height: 4, hasAlpha: false, thumbhash: "x")
        let line = try ManifestLine(
            outcome: .success(metadata), path: "nested/a.jpg", sourceChecksum: checksum,
            declaration: declaration
        ).text()
        let fields = try object(line)
        #expect(
            Set(fields.keys) == [
                "bucket", "path", "size", "contentType", "checksumSha256", "width", "height",
                "hasAlpha", "thumbhash", "declarationSha256",
            ])
        #expect(fields["path"] as? String == "nested/a.jpg")
        #expect(try WireJSON.decode(CompletionMetadata.self, from: line) == metadata)
    }

    @Test func errorLineAddsPathAndSourceChecksum() throws {
        let error = VariantsError.unreadable(.truncated, "ends early")
        let line = try ManifestLine(
            outcome: .failure(error), path: "b.jpg", sourceChecksum: checksum, declaration: declaration
        ).text()
        let fields = try object(line)
        #expect(fields["statusCode"] as? Int == 422)
        #expect(fields["error"] as? String == "unreadable_picture")
        #expect(fields["reason"] as? String == "truncated")
        #expect(fields["path"] as? String == "b.jpg")
        #expect(fields["checksumSha256"] as? String == checksum)
        #expect(fields["declarationSha256"] as? String == declaration)
        #expect(try WireJSON.decode(VariantsError.self, from: line) == error)
    }

    @Test func recordsReadBackKeysAndCategories() throws {
        let ok = try ManifestLine(
            outcome: .success(
                CompletionMetadata(
                    bucket: "b", path: "a.pdf", size: 1, contentType: "application/pdf",
                    checksumSha256: checksum)),
            path: "a.pdf", sourceChecksum: checksum, declaration: declaration
        ).text()
        let record = try #require(ManifestRecord(line: ok))
        #expect(record.doneCategory == .ok)
        #expect(record.key == ManifestKey(path: "a.pdf", sourceChecksum: checksum, declaration: declaration))
        #expect(record.key != ManifestKey(path: "b.pdf", sourceChecksum: checksum, declaration: declaration))
        let unsupported = try ManifestLine(
            outcome: .failure(VariantsError(.unsupportedMediaType, "no")), path: "a.pdf",
            sourceChecksum: checksum,
            declaration: declaration
        ).text()
        #expect(ManifestRecord(line: unsupported)?.doneCategory == .unsupported)
    }

    @Test func transientErrorsAndUnknownCodesAreNotDone() throws {
        let busy = try ManifestLine(
            outcome: .failure(VariantsError(.internalError, "disk")), path: "a", sourceChecksum: checksum,
            declaration: declaration
        ).text()
        #expect(try #require(ManifestRecord(line: busy)).doneCategory == nil)
        let outage = try ManifestLine(
            outcome: .failure(VariantsError(.storeUnavailable, "object storage unavailable")), path: "a",
            sourceChecksum: checksum, declaration: declaration
        ).text()
        #expect(String(decoding: outage, as: UTF8.self).contains(#""error":"store_unavailable""#))
        #expect(try #require(ManifestRecord(line: outage)).doneCategory == nil)
        let earlier = #"{"error":"transform_busy","path":"a","checksumSha256":"c","declarationSha256":"d"}"#
        #expect(try #require(ManifestRecord(line: Array(earlier.utf8))).doneCategory == nil)
        let future = #"{"error":"new_code","path":"a","checksumSha256":"c","declarationSha256":"d"}"#
        #expect(try #require(ManifestRecord(line: Array(future.utf8))).doneCategory == nil)
    }

    @Test func linesWithoutTheKeyFieldsAreNotRecords() {
        #expect(
            ManifestRecord(line: Array(#"{"statusCode":404,"error":"not_found","message":"gone"}"#.utf8))
                == nil)
        #expect(ManifestRecord(line: Array("{\"path\":".utf8)) == nil)
    }

    @Test func aTornLastLineIsCutOffBeforeAppending() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("manifest.jsonl").path
        let whole = try ManifestLine(
            outcome: .failure(VariantsError(.unsupportedMediaType, "no")), path: "a",
            sourceChecksum: checksum,
            declaration: declaration
        ).text()
        try Data(whole + [0x0A] + Array("not json\n{\"path\":\"b\",\"chec".utf8)).write(
            to: URL(fileURLWithPath: path))

        let (writer, contents) = try ManifestWriter.open(path)
        #expect(contents.done.count == 1)
        #expect(contents.unreadableLines == 1)
        #expect(contents.completeLength == UInt64(whole.count + 1 + "not json\n".utf8.count))
        try writer.append(Array("{}".utf8))
        try writer.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == String(decoding: whole, as: UTF8.self) + "\nnot json\n{}\n")
    }

    /// A resume's progress expects as many skips as the manifest holds keys under its declaration: a line
    /// repeated, or retried after a transient error, counts once, and one still to be retried not at all.
    @Test func theKeysDoneAreCountedByDeclaration() throws {
        func line(_ path: String, _ declaration: String, _ error: VariantsError.Code? = nil) throws -> String
        {
            let outcome: Result<CompletionMetadata, VariantsError> =
                .failure(VariantsError(error ?? .unsupportedMediaType, "no"))
            return String(
                decoding: try ManifestLine(
                    outcome: outcome, path: path, sourceChecksum: checksum, declaration: declaration
                ).text(), as: UTF8.self)
        }
        let other = String(repeating: "e", count: 64)
        let lines = [
            try line("a", declaration), try line("a", declaration),
            try line("b", declaration, .internalError),
            try line("c", declaration), try line("c", declaration, .internalError), try line("a", other),
        ]
        var contents = ManifestReader.Contents()
        for text in lines { ManifestReader.add(Array(text.utf8)[...], to: &contents) }
        #expect(contents.done.count == 2)
        #expect(contents.doneByDeclaration == [declaration: 1, other: 1])
    }

    @Test func aSecondWriterIsRefusedWhileTheFirstHoldsTheManifest() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("manifest.jsonl").path
        let (first, _) = try ManifestWriter.open(path)
        #expect(throws: ManifestWriter.Failure.self) { try ManifestWriter.open(path) }
        try first.close()
        let (again, _) = try ManifestWriter.open(path)
        try again.close()
    }
}
