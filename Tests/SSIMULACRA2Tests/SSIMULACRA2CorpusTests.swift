import Foundation
import SSIMULACRA2
import Testing
import VariantdTestSupport

@testable import Variants

/// Corpus photos, reduced to 480 pixels wide to stay quick, through the product's JPEG and WebP encoders, scored
/// here and by `score.py` (the PyPI package with the reference's blur and scale count) in the test venv.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: Fixtures.corpusPhotos.path),
        "../shared/corpus is absent"),
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: Fixtures.python.path),
        "the test venv with the PyPI ssimulacra2 is absent (scripts/test.sh installs it in .build/test-venv)")
)
struct SSIMULACRA2CorpusTests {
    static var firstPhotos: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.corpusPhotos.path)) ?? []
        return Array(names.filter { $0.hasSuffix(".jpg") }.sorted().prefix(3))
    }

    enum Codec: String, CaseIterable, Sendable {
        case jpeg
        case webp

        func roundTrip(_ image: VipsImage) throws -> VipsImage {
            switch self {
            case .jpeg:
                let bytes = try JPEGEncoder.encode(
                    image, quality: 40, progressive: false, optimizedCoding: true)
                return try VipsImage.load(.jpeg, bytes: bytes)
            case .webp:
                let bytes = try WebPEncoder.encode(image, quality: 40, effort: 4, threads: 1)
                return try VipsImage.load(.webp, bytes: bytes)
            }
        }
    }

    @Test(arguments: firstPhotos, Codec.allCases)
    func scoreMatchesTheReference(photo: String, codec: Codec) throws {
        try Vips.start()
        let source = try VipsImage.load(
            .jpeg, bytes: [UInt8](Data(contentsOf: Fixtures.corpusPhotos.appendingPathComponent(photo))))
        let header = source.header
        let width = 480
        let height = max(8, header.height * width / header.width)
        let original = try source.resized(toWidth: width, height: height).materialized()
        let distorted = try codec.roundTrip(original).materialized()
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let originalURL = folder.appendingPathComponent("original.png")
        let distortedURL = folder.appendingPathComponent("distorted.png")
        try Data(original.encodedAsPNG(effort: 1)).write(to: originalURL)
        try Data(distorted.encodedAsPNG(effort: 1)).write(to: distortedURL)
        let reference = try Fixtures.referenceScore(original: originalURL, distorted: distortedURL)
        let score = try SSIMULACRA2.score(
            original: Fixtures.picture(of: original), distorted: Fixtures.picture(of: distorted))
        #expect(abs(score - reference) <= 0.5, "ours \(score), reference \(reference)")
    }
}
