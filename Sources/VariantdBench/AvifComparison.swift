import Foundation
import VariantdCore
import Variants

/// One 1600-pixel AVIF rendition at q60 by us and by pyvips at its default effort, with the file sizes and
/// a perceptual check of both against the same source (`anchors/avif.py`, SSIM on luma with numpy).
struct AvifComparison: Sendable, Codable, Equatable {
    /// One encoder's result.
    struct Encoding: Sendable, Codable, Equatable {
        var tool: String
        /// Median seconds of the AVIF encode alone.
        var encodeSeconds: Double
        var bytes: Int
        var width: Int
        var height: Int
        /// Mean SSIM of the decoded AVIF's luma against the source resized to the same size (1 is identical).
        var ssim: Double?

        enum CodingKeys: String, CodingKey {
            case tool, bytes, width, height, ssim
            case encodeSeconds = "encode_s"
        }
    }

    var source: String
    var encodings: [Encoding]

    /// Our side, run in a pinned worker: the AVIF bucket through `Pipeline`, one warm-up then `iterations`
    /// timed runs; the last rendition is kept at `output` for the quality check.
    static func measureOurs(source: String, iterations: Int, output: String) throws -> Encoding {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-avif-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let store = try RenditionFolder(root: scratch.path)
        let pipeline = try Pipeline(store: store)
        let bytes = try SourceFile.read(source, maxBytes: .max)
        var encodes: [Double] = []
        var last: (Rendition, [UInt8])?
        for _ in 0...iterations {
            var timings = StageTimings()
            let metadata = try pipeline.process(
                bytes, request: ObjectRequest(bucket: W1Workload.avifBucket.name, path: source),
                bucket: W1Workload.avifBucket, timings: &timings)
            guard let rendition = metadata.renditions?["avif"], let file = store.existing(rendition.key)
            else {
                throw VariantsError(.internalError, "the AVIF rendition was not written")
            }
            encodes.append(timings.seconds["encode.avif"] ?? 0)
            last = (rendition, file)
            try FileManager.default.removeItem(atPath: store.root + "/" + metadata.checksumSha256.prefix(2))
        }
        guard let (rendition, file) = last else { throw VariantsError(.internalError, "no AVIF was made") }
        try Data(file).write(to: URL(fileURLWithPath: output))
        return Encoding(
            tool: "variantd", encodeSeconds: BenchStatistics.percentile(Array(encodes.dropFirst()), 0.5),
            bytes: rendition.size, width: rendition.width, height: rendition.height, ssim: nil)
    }

    /// The source the comparison uses: the 12 MP Nikon photo when present (its 1600-pixel rendition is
    /// 1600 × 1063, the size of the target), else the largest JPEG of the corpus.
    static func source(in corpora: [BenchCorpus]) -> String? {
        let jpegs = corpora.first { $0.name == "jpeg" }?.files ?? []
        if let nikon = jpegs.first(where: { $0.hasSuffix("/Nikon_D90.jpg") }) { return nikon }
        return jpegs.max { fileSize($0) < fileSize($1) }
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
