import Foundation
import SSIMULACRA2
import VariantdTestSupport

@testable import Variants

/// Pictures for the scorer, decoded by the product's own libvips so the test target needs no decoder of its own.
enum Fixtures {
    static let vectors = TestPaths.samples.appendingPathComponent("ssimulacra2")
    static let corpusPhotos = TestPaths.shared.appendingPathComponent("corpus/photos/jpeg")

    /// The venv `scripts/test.sh` installs the PyPI `ssimulacra2` into, and the script scoring pairs with it.
    static let python = TestPaths.packageRoot.appendingPathComponent(".build/test-venv/bin/python")
    static let scorer = TestPaths.samples.appendingPathComponent("generators/ssimulacra2/score.py")

    static func picture(png url: URL) throws -> SRGBPicture {
        try Vips.start()
        return try picture(of: VipsImage.load(.png, bytes: [UInt8](Data(contentsOf: url))))
    }

    /// As the product's quality search reads a rendition.
    static func picture(of image: VipsImage) throws -> SRGBPicture {
        try QualitySearch.picture(of: image)
    }

    /// The reference-faithful score `score.py` gives a pair of PNGs.
    static func referenceScore(original: URL, distorted: URL) throws -> Double {
        let process = Process()
        let output = Pipe()
        process.executableURL = python
        process.arguments = [scorer.path, original.path, distorted.path]
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let first = text.split(separator: " ").first,
            let score = Double(first)
        else { throw ScorerFailed(status: process.terminationStatus, output: text) }
        return score
    }

    struct ScorerFailed: Error {
        let status: Int32
        let output: String
    }
}
