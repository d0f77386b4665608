import Foundation
import VariantdCore

/// The parent's side of the AVIF comparison: ours in a pinned `bench-worker`, then pyvips' encoding and the
/// SSIM of both, which `anchors/avif.py` prints as JSON.
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
        var ours = try WireJSON.decode(
            Encoding.self,
            from: MeasuringProcess.run(
                Executable.current,
                ["bench-worker", "--mode", "avif", "--iterations", "\(iterations)", "--out", output, source],
                pinned: true))
        var encodings = [ours]
        if anchors, FileManager.default.isExecutableFile(atPath: BenchPaths.binaryPython) {
            do {
                let scores = try WireJSON.decode(
                    Scores.self,
                    from: MeasuringProcess.run(
                        BenchPaths.binaryPython, [BenchPaths.script("avif.py"), source, output, "1"],
                        pinned: true))
                ours.ssim = scores.oursSSIM
                encodings = [ours, scores.pyvips]
            } catch {
                Console.error("bench: the pyvips AVIF comparison did not finish: \(error)")
            }
        }
        return AvifComparison(source: source, encodings: encodings)
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
