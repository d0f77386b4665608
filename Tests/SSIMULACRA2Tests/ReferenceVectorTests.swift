import Foundation
import SSIMULACRA2
import Testing

/// The committed pairs of `Samples/ssimulacra2` (sample photos through JPEG and WebP at qualities 30, 60 and
/// 90; `Samples/generators/ssimulacra2`), scored as the reference tool scores them.
@Suite struct ReferenceVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let original: String
        let distorted: String
        let reference: Double
        var testDescription: String { distorted }
    }

    static let vectors: [Vector] = {
        let url = Fixtures.vectors.appendingPathComponent("vectors.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return Vector(original: fields[0], distorted: fields[1], reference: Double(fields[2]) ?? .nan)
        }
    }()

    @Test func everyVectorIsRead() {
        #expect(Self.vectors.count == 12)
    }

    @Test(arguments: vectors)
    func scoreMatchesTheReference(vector: Vector) throws {
        let original = try Fixtures.picture(png: Fixtures.vectors.appendingPathComponent(vector.original))
        let distorted = try Fixtures.picture(png: Fixtures.vectors.appendingPathComponent(vector.distorted))
        let score = try SSIMULACRA2.score(original: original, distorted: distorted)
        #expect(abs(score - vector.reference) <= 0.5, "ours \(score), reference \(vector.reference)")
    }
}
