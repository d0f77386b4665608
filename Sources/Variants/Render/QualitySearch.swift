import SSIMULACRA2

/// Finds the lowest encoder quality whose rendition, decoded again, scores at least a SSIMULACRA2 target
/// against the lossless pixels it was encoded from.
///
/// A bisection over 1…100: seven encodes, each decoded and scored against the original prepared once. It
/// ends on a quality that reaches the target whose next lower one was tried and did not, so the answer is
/// minimal even where the score is not monotonic in quality. Where even 100 falls short, 100 is used.
enum QualitySearch {
    struct Found {
        let bytes: [UInt8]
        let quality: Int
        let score: Double
        /// How many renditions were encoded, decoded and scored.
        let encodes: Int
    }

    /// `nil` where no search can be made: a format the search does not decode, or a rendition under 8 pixels
    /// a side, the metric's smallest; the caller then encodes at the plan's fixed quality.
    static func lowest(
        reaching target: Double, of image: VipsImage, format: OutputFormat,
        encode: (Int) throws(BackendError) -> [UInt8]
    ) throws(BackendError) -> Found? {
        let loader: VipsLoader
        switch format {
        case .jpeg: loader = .jpeg
        case .webp: loader = .webp
        case .png, .avif, .original: return nil
        }
        guard let original = try? SSIMULACRA2.Original(picture(of: image)) else { return nil }
        var encodes = 0
        func attempt(_ quality: Int) throws(BackendError) -> Found? {
            let bytes = try encode(quality)
            encodes += 1
            let decoded = try VipsImage.load(loader, bytes: bytes)
            guard let score = try? original.score(picture(of: decoded)) else { return nil }
            return Found(bytes: bytes, quality: quality, score: score, encodes: encodes)
        }
        var low = 1
        var high = 100
        var reached: Found?
        while low < high {
            let middle = (low + high) / 2
            guard let found = try attempt(middle) else { return nil }
            if found.score >= target {
                high = middle
                reached = found
            } else {
                low = middle + 1
            }
        }
        if let reached {
            return Found(
                bytes: reached.bytes, quality: reached.quality, score: reached.score, encodes: encodes)
        }
        return try attempt(high)
    }

    /// The image's pixels as the metric reads them: grey spread to RGB, alpha kept.
    static func picture(of image: VipsImage) throws -> SRGBPicture {
        let header = image.header
        var pixels = try image.pixelBytes()
        switch header.bands {
        case 1: pixels = pixels.flatMap { [$0, $0, $0] }
        case 2:
            pixels = stride(from: 0, to: pixels.count, by: 2).flatMap {
                [pixels[$0], pixels[$0], pixels[$0], pixels[$0 + 1]]
            }
        default: break
        }
        return try SRGBPicture(
            width: header.width, height: header.height, layout: header.bands % 2 == 0 ? .rgba : .rgb,
            pixels: pixels)
    }
}
