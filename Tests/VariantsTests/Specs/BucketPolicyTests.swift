import Foundation
import Testing

@testable import Variants

/// A bucket that blocks executables refuses programs by their bytes and by their names, in the pipeline a decoder
/// child runs; one that does not reports them by type like any other object that is not a picture.
@Suite struct BucketPolicyTests {
    private static let blocking = #"{"name": "uploads", "blockExecutables": true}"#
    private static let open = #"{"name": "uploads"}"#

    private func run(
        _ bytes: [UInt8], path: String, declared: String? = nil, bucket declaration: String
    ) throws -> Result<CompletionMetadata, VariantsError> {
        let bucket = try BucketDeclaration(parsing: declaration.utf8)
        let order = RenditionOrder(
            ObjectRequest(bucket: "uploads", path: path, declaredContentType: declared), bucket: bucket)
        var timings = StageTimings()
        let pipeline = try Pipeline()
        return Result { () throws(VariantsError) in try pipeline.run(order, bytes: bytes, timings: &timings) }
    }

    private func expectRefusedAsExecutable(_ result: Result<CompletionMetadata, VariantsError>) throws {
        guard case .failure(let error) = result else {
            Issue.record("taken: \(result)")
            return
        }
        #expect(error.code == .unsupportedMediaType && error.statusCode == 415)
        #expect(error.reason == .executable)
        let wire = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(error)) as? [String: Any])
        #expect(wire["error"] as? String == "unsupported_media_type")
        #expect(wire["reason"] as? String == "executable")
    }

    private func expectReported(
        _ result: Result<CompletionMetadata, VariantsError>, as type: String, bytes: [UInt8]
    )
        throws
    {
        let metadata = try result.get()
        #expect(metadata.contentType == type)
        #expect(metadata.size == bytes.count && metadata.checksumSha256 == SHA256.hex(bytes))
        #expect(metadata.width == nil && metadata.height == nil && metadata.thumbhash == nil)
        #expect(metadata.hasAlpha == nil && (metadata.renditions ?? [:]).isEmpty)
    }

    /// Every program under a name that says nothing, in both kinds of bucket.
    @Test(arguments: Programs.written.indices)
    func writtenPrograms(index: Int) throws {
        let program = Programs.written[index]
        try expectRefusedAsExecutable(
            try run(program.bytes, path: "in/\(program.name)", bucket: Self.blocking))
        try expectReported(
            try run(program.bytes, path: "in/\(program.name)", bucket: Self.open), as: program.type,
            bytes: program.bytes)
    }

    @Test func aCompiledProgram() throws {
        let bytes = try Programs.compiled()
        try expectRefusedAsExecutable(try run(bytes, path: "in/hello", bucket: Self.blocking))
        try expectReported(
            try run(bytes, path: "in/hello", bucket: Self.open), as: "application/x-executable", bytes: bytes)
    }

    /// A program dressed as a picture is refused as a program, not as a broken picture.
    @Test func aProgramNamedAndDeclaredAsAPicture() throws {
        let bytes = try Programs.compiled()
        try expectRefusedAsExecutable(
            try run(bytes, path: "photo.png", declared: "image/png", bucket: Self.blocking))
        let open = try run(bytes, path: "photo.png", declared: "image/png", bucket: Self.open)
        guard case .failure(let error) = open else {
            Issue.record("taken: \(open)")
            return
        }
        #expect(error.reason == .notAPicture)
    }

    /// The name alone refuses, in any case, whatever the bytes and the declared type say.
    @Test(arguments: ["x.EXE", "photo.exe", "photo.Scr", "setup.msi."])
    func aPictureWithAProgramsName(path: String) throws {
        let png = try Samples.bytes("pictures/gradient-alpha.png")
        try expectRefusedAsExecutable(try run(png, path: path, declared: "image/png", bucket: Self.blocking))
        let metadata = try run(png, path: path, declared: "image/png", bucket: Self.open).get()
        #expect(metadata.contentType == "image/png" && metadata.width == 320 && metadata.thumbhash != nil)
    }

    /// Blocking executables leaves pictures and documents alone, and the allowed types still apply after it.
    @Test func otherObjectsAreTakenAsBefore() throws {
        let png = try Samples.bytes("pictures/gradient-alpha.png")
        let pictures = #"{"name": "uploads", "blockExecutables": true, "allowedMimeTypes": ["image/*"]}"#
        #expect(try run(png, path: "photo.png", bucket: pictures).get().width == 320)
        let pdf = TestPDF(pages: [.init(width: 8, height: 8)]).bytes
        #expect(try run(pdf, path: "doc.pdf", bucket: Self.blocking).get().contentType == "application/pdf")
        guard case .failure(let error) = try run(pdf, path: "doc.pdf", bucket: pictures) else {
            Issue.record("a PDF went into a bucket of pictures")
            return
        }
        #expect(error.code == .unsupportedMediaType && error.reason == nil)
    }
}
