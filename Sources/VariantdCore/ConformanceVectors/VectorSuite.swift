package import Foundation
import ThumbHash

/// A folder of ThumbHash reference vectors (`manifest.json` and `cases/`) and the candidate lines their
/// grader checks, one per case.
///
/// The command and the tests share this so that what the tests grade is exactly what the CLI prints. It is a
/// check of the product, not only of the tests: `variantd thumbhash vectors` lets the grader check the binary
/// that is installed, a release build, where the tests run a debug one.
package struct VectorSuite: Sendable {
    /// One input image and what the reference made of it.
    package struct Case: Sendable, Decodable {
        package let id: String
        package let w: Int
        package let h: Int
        /// Path of the raw RGBA8 pixels, relative to the folder.
        package let rgba: String
        package let expect: Expectation
    }

    /// The fields of `expect` this side needs: the reference hash, or the rejection it expects.
    package struct Expectation: Sendable, Decodable {
        package let hashBase64: String?
        package let error: String?

        private enum CodingKeys: String, CodingKey {
            case hashBase64 = "hash_b64"
            case error
        }
    }

    private struct Manifest: Decodable {
        let cases: [Case]
    }

    package let directory: URL
    package let cases: [Case]

    package init(directory: URL) throws {
        self.directory = directory
        let data = try Data(contentsOf: directory.appending(path: "manifest.json"))
        cases = try JSONDecoder().decode(Manifest.self, from: data).cases
    }

    /// The grader's line for one case: the hash of its pixels (or the error that rejected them), and the
    /// decode, average colour and aspect ratio of the reference hash, so encoding and decoding are graded
    /// apart.
    package func candidateLine(for testCase: Case) throws -> String {
        let pixels = try [UInt8](Data(contentsOf: directory.appending(path: testCase.rgba)))
        var line = CandidateLine(id: testCase.id)
        do {
            line.hash = try ThumbHash.encode(width: testCase.w, height: testCase.h, rgba: pixels).base64
        } catch {
            line.error = error.code
        }
        if let expected = testCase.expect.hashBase64 {
            let hash = try ThumbHash(base64: expected)
            let image = hash.decode()
            let rgba = Data(image.rgba).base64EncodedString()
            line.decoded = .init(w: image.width, h: image.height, rgba: rgba)
            let color = hash.averageColor
            line.avg = [color.red, color.green, color.blue, color.alpha]
            line.ratio = hash.approximateAspectRatio
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(line), as: UTF8.self)
    }

    /// Every case's line, in manifest order, newline-terminated: the grader's candidate file.
    package func candidate() throws -> String {
        try cases.map { try candidateLine(for: $0) + "\n" }.joined()
    }

    private struct CandidateLine: Encodable {
        struct Decoded: Encodable {
            let w: Int
            let h: Int
            let rgba: String
        }

        let id: String
        var hash: String?
        var error: String?
        var decoded: Decoded?
        var avg: [Double]?
        var ratio: Double?
    }
}
