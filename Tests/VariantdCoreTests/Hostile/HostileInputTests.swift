import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// Broken, truncated, oversized and disguised files: each gets its typed answer from a decoder child within
/// the deadline and a memory bound, and the pool keeps serving.
@Suite struct HostileInputTests {
    private static let pool = PipelinePool.overFiles(
        .init(executable: TestPaths.variantd, size: 2, deadline: .seconds(30)))
    /// Peak resident memory a decoder child may reach on any of these files.
    private static let memoryBoundKiB = 1_536 * 1024

    private static let samples = [
        "gradient.jpg", "gradient-alpha.png", "gradient.webp", "gradient.gif", "rgb-29x100.heif",
        "hopper.avif",
    ]
    /// Ten cut points, as fractions of the file.
    private static let cuts = [0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]

    private func answer(for bytes: [UInt8], named name: String) async throws -> PipelineAnswer {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        let answer = await Self.pool.fulfil(file: file.path, bucketName: "hostile")
        // Time spent in the child, not waiting for one: the suite shares two children with its parallel tests.
        #expect(answer.timings.seconds.values.reduce(0, +) < 30)
        #expect((answer.peakResidentKiB ?? 0) < Self.memoryBoundKiB)
        return answer
    }

    private func failure(_ answer: PipelineAnswer) -> VariantsError? {
        if case .failure(let error) = answer.outcome { return error }
        return nil
    }

    @Test(arguments: samples)
    func truncatedSamplesAreUnreadable(sample: String) async throws {
        let bytes = try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/\(sample)"))
        for cut in Self.cuts {
            let prefix = Array(bytes.prefix(max(1, Int(Double(bytes.count) * cut))))
            let error = try #require(
                failure(try await answer(for: prefix, named: sample)), "\(sample) cut at \(cut)")
            #expect(error.code == .unreadablePicture, "\(sample) cut at \(cut): \(error)")
            #expect([.truncated, .corrupt].contains(error.reason), "\(sample) cut at \(cut): \(error)")
        }
    }

    @Test func randomBytesNamedAsAPictureAreUnreadable() async throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let error = try #require(failure(try await answer(for: noise, named: "noise.jpg")))
        #expect(error.code == .unreadablePicture)
        #expect(error.reason == .corrupt)
    }

    @Test func zeroBytesNamedAsAPictureAreEmpty() async throws {
        #expect(failure(try await answer(for: [], named: "empty.png"))?.reason == .empty)
    }

    @Test func contentDecidesOverTheExtension() async throws {
        let png = [UInt8](
            try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient-alpha.png")))
        let metadata = try await answer(for: png, named: "photo.jpg").outcome.get()
        #expect(metadata.contentType == "image/png")
        let pdf = [UInt8](
            try Data(contentsOf: TestPaths.samples.appendingPathComponent("other/document.pdf")))
        #expect(failure(try await answer(for: pdf, named: "photo.png"))?.reason == .notAPicture)
    }

    @Test func pngDeclaring50000SquaredIsRefusedFromItsHeader() async throws {
        let error = try #require(
            failure(try await answer(for: Self.pngBomb(side: 50_000), named: "bomb.png")))
        #expect(error.code == .unreadablePicture)
        #expect(error.reason == .tooManyPixels)
    }

    @Test func jpegDeclaring65500SquaredIsRefusedFromItsHeader() async throws {
        var bytes = [UInt8](
            try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")))
        let frame = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(frame + 5..<frame + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
        #expect(failure(try await answer(for: bytes, named: "bomb.jpg"))?.reason == .tooManyPixels)
    }

    @Test func jpegCarryingNineMegabytesOfMetadataIsRefused() async throws {
        let bytes = [UInt8](
            try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg")))
        let segment: [UInt8] = [0xFF, 0xE1, 0xFF, 0xFF] + [UInt8](repeating: 0x41, count: 0xFFFD)
        let padded = Array(bytes[..<2]) + (0..<144).flatMap { _ in segment } + Array(bytes[2...])
        #expect(failure(try await answer(for: padded, named: "exif.jpg"))?.reason == .tooMuchMetadata)
    }

    @Test(
        .enabled(if: Corpus.isAvailable, "no ../shared/corpus beside the checkout (a plain clone)"),
        arguments: Corpus.rows.filter { $0.path.hasPrefix("hostile/") })
    func hostileCorpusFileGetsATypedAnswer(row: Corpus.Row) async throws {
        let bytes = [UInt8](try Data(contentsOf: Corpus.url(row)))
        let result = try await answer(for: bytes, named: (row.path as NSString).lastPathComponent)
        if let error = failure(result) {
            #expect(!row.decodes, "\(error)")
            #expect([.unreadablePicture, .unsupportedMediaType].contains(error.code), "\(error)")
            #expect(error.reason != .decoderTimeout)
        } else if let video = Self.videosUnderPictureNames[row.path] {
            #expect(try result.outcome.get().contentType == video)
        } else {
            #expect(row.decodes)
        }
    }

    /// Rows the manifest expects refused that are shown here: an MP4 video under a picture's name gets its
    /// poster frame, its bytes deciding over its name.
    private static let videosUnderPictureNames = ["hostile/disguised/mp4-named.heic": "video/mp4"]

    /// A valid PNG signature and IHDR declaring `side` × `side` grey pixels, then a tiny IDAT and IEND.
    static func pngBomb(side: Int) -> [UInt8] {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(body.count) + typed + bigEndian(Int(CRC32.checksum(typed[...])))
        }
        func bigEndian(_ value: Int) -> [UInt8] {
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        let header = bigEndian(side) + bigEndian(side) + [8, 0, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat)
            + chunk("IEND", [])
    }
}
