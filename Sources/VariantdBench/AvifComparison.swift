import Foundation
import VariantdCore
import Variants

/// One 1600-pixel AVIF rendition at q60 by us and by pyvips at its default effort, with the file sizes and
/// a perceptual check of both against the same source (`anchors/avif.py`, SSIM on luma with numpy); then
/// ours again at the quality whose file comes closest to pyvips' size, to compare speed and SSIM at a
/// matched size.
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
        /// Our encoder's quality (1…100); nil for pyvips, which runs at its default settings but Q.
        var quality: Int?

        enum CodingKeys: String, CodingKey {
            case tool, bytes, width, height, ssim, quality
            case encodeSeconds = "encode_s"
        }
    }

    var source: String
    var encodings: [Encoding]

    /// The row of ours at q60, and of ours at pyvips' file size.
    static let oursTool = "variantd"
    static let matchedTool = "variantd at pyvips' size"

    /// Our side, run in a pinned worker: the AVIF bucket at `quality` through `Pipeline`, one warm-up then
    /// `iterations` timed runs; the last rendition is kept at `output` for the quality check.
    static func measureOurs(source: String, quality: Int, iterations: Int, output: String, tool: String)
        throws -> Encoding
    {
        let encoder = try OurEncoder(source: source)
        var encodes: [Double] = []
        var last: (rendition: Rendition, file: [UInt8])?
        for _ in 0...iterations {
            let encoded = try encoder.encode(quality: quality)
            encodes.append(encoded.seconds)
            last = (encoded.rendition, encoded.file)
        }
        guard let (rendition, file) = last else { throw VariantsError(.internalError, "no AVIF was made") }
        try Data(file).write(to: URL(fileURLWithPath: output))
        return Encoding(
            tool: tool,
            encodeSeconds: BenchStatistics.percentile(Array(encodes.dropFirst()), 0.5), bytes: rendition.size,
            width: rendition.width, height: rendition.height, ssim: nil, quality: quality)
    }

    /// The quality whose file is closest to `bytes` (the file grows with the quality, so a bisection over
    /// 1…100 finds it in seven encodes).
    static func quality(matching bytes: Int, source: String) throws -> Int {
        let encoder = try OurEncoder(source: source)
        var (low, high) = (1, 100)
        var sizes: [Int: Int] = [:]
        while low < high {
            let middle = (low + high) / 2
            let size = try encoder.encode(quality: middle).rendition.size
            sizes[middle] = size
            if size < bytes { low = middle + 1 } else { high = middle }
        }
        // The first quality at or above the size, or the one below it, whichever is closer.
        let atLow = try sizes[low] ?? encoder.encode(quality: low).rendition.size
        guard low > 1 else { return low }
        let belowLow = try sizes[low - 1] ?? encoder.encode(quality: low - 1).rendition.size
        return abs(belowLow - bytes) < abs(atLow - bytes) ? low - 1 : low
    }

    /// The AVIF bucket's one rendition of one source through `Pipeline`, into a scratch store removed with it.
    private final class OurEncoder {
        let source: String
        let bytes: [UInt8]
        let store: RenditionFolder
        let pipeline: Pipeline

        init(source: String) throws {
            self.source = source
            bytes = try SourceFile.read(source, maxBytes: .max)
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "variantd-avif-\(UUID().uuidString)")
            store = try RenditionFolder(root: scratch.path)
            pipeline = try Pipeline(store: store)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: store.root)
        }

        /// Encodes once, leaves the store empty, and returns the rendition, its bytes and the encode's seconds.
        func encode(quality: Int) throws -> (rendition: Rendition, file: [UInt8], seconds: Double) {
            let bucket = W1Workload.avifBucket(quality: quality)
            var timings = StageTimings()
            let order = RenditionOrder(ObjectRequest(bucket: bucket.name, path: source), bucket: bucket)
            let metadata = try pipeline.run(order, bytes: bytes, timings: &timings)
            guard let rendition = metadata.renditions?["avif"], let file = store.existing(rendition.key)
            else {
                throw VariantsError(.internalError, "the AVIF rendition was not written")
            }
            try FileManager.default.removeItem(atPath: store.root + "/" + metadata.checksumSha256.prefix(2))
            return (rendition, file, timings.seconds["encode.avif"] ?? 0)
        }
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
