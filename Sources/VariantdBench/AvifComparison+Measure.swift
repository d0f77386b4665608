import Foundation
import VariantdCore

/// The parent's side of the AVIF comparison: ours in a pinned `bench-worker`, then pyvips' encoding and the
/// SSIM of both, which `anchors/avif.py` prints as JSON; then ours at pyvips' file size, scored the same way.
extension AvifComparison {
    /// Ours always; pyvips' and the quality scores `withAnchors` when the pyvips-binary venv exists.
    static func measure(_ corpora: [BenchCorpus], iterations: Int, withAnchors anchors: Bool) throws
        -> AvifComparison?
    {
        guard let source = source(in: corpora) else { return nil }
        Console.error("bench: AVIF rendition of \((source as NSString).lastPathComponent)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-bench-\(UUID().uuidString).avif"
        ).path
        defer { try? FileManager.default.removeItem(atPath: output) }
        func ours(matching bytes: Int? = nil) throws -> Encoding {
            try WireJSON.decode(
                Encoding.self,
                from: MeasuringProcess.run(
                    Executable.current,
                    ["bench-worker", "--mode", "avif", "--iterations", "\(iterations)", "--out", output]
                        + (bytes.map { ["--match-bytes", "\($0)"] } ?? []) + [source],
                    pinned: true))
        }
        var encodings = [try ours()]
        if anchors, FileManager.default.isExecutableFile(atPath: BenchPaths.binaryPython) {
            do {
                let scores = try WireJSON.decode(
                    Scores.self,
                    from: MeasuringProcess.run(
                        BenchPaths.binaryPython, [BenchPaths.script("avif.py"), source, output, "1"],
                        pinned: true))
                encodings[0].ssim = scores.oursSSIM
                encodings.append(scores.pyvips)
                var matched = try ours(matching: scores.pyvips.bytes)
                matched.ssim = try WireJSON.decode(
                    Score.self,
                    from: MeasuringProcess.run(
                        BenchPaths.binaryPython, [BenchPaths.script("avif.py"), "--score", source, output],
                        pinned: true)
                ).ssim
                encodings.append(matched)
            } catch {
                Console.error("bench: the pyvips AVIF comparison did not finish: \(error)")
            }
        }
        return AvifComparison(source: source, encodings: encodings)
    }

    /// What `avif.py --score` prints: the SSIM of one file.
    private struct Score: Decodable {
        var ssim: Double
    }

    /// What `avif.py` prints: pyvips' encoding of the source, and the SSIM of ours.
    private struct Scores: Decodable {
        var pyvips: Encoding
        var oursSSIM: Double

        enum CodingKeys: String, CodingKey {
            case pyvips
            case oursSSIM = "ours_ssim"
        }
    }
}
