import SSIMULACRA2

/// Finds the lowest encoder quality whose rendition, decoded again, scores at least a SSIMULACRA2 target
/// against the lossless pixels it was encoded from.
///
/// Each try encodes, decodes and scores against the original prepared once. The first try is the format's
/// default quality, near where `auto` lands. The second moves towards the target by as many qualities as the
/// first one's gap needs at the format's usual points per step (`FormatFacts.ScoreSearch`), and each later one
/// twice as far, until the answer is bracketed; then each try is read off the straight line between the
/// bracket's ends, score against quality (regula falsi with Illinois' rule; a bisection whenever the last try
/// did not halve the bracket): two to six tries, 3.3 on average on the corpus photos. It ends on a quality
/// that reaches the target whose next lower one was tried and did not, so the answer is minimal even where the
/// score is not monotonic in quality. Where even 100 falls short, 100 is used.
enum QualitySearch {
    struct Found {
        let bytes: [UInt8]
        let quality: Int
        let score: Double
        /// How many renditions were encoded, decoded and scored.
        var encodes = 0
    }

    /// `nil` where no search can be made: a format the search does not decode, a rendition under 8 pixels a
    /// side (the metric's smallest), or a score that is not a number; the caller then encodes at the plan's
    /// fixed quality.
    static func lowest(
        reaching target: Double, of image: VipsImage, format: OutputFormat,
        encode: (Int) throws(BackendError) -> [UInt8]
    ) throws(BackendError) -> Found? {
        // Only formats the formats table gives a target are searched, read back by the loader it names.
        guard let search = format.scoreSearch, case .vips(let loader) = format.writtenType?.facts.decoder,
            let original = try? SSIMULACRA2.Original(picture(of: image)),
            let first = format.defaultQuality
        else { return nil }
        var encodes = 0
        func attempt(_ quality: Int) throws(BackendError) -> Found? {
            let bytes = try encode(quality)
            encodes += 1
            let decoded = try VipsImage.load(loader, bytes: bytes)
            // A score that is not a number would steer every later try nowhere: no search then.
            guard let score = try? original.score(picture(of: decoded)), score.isFinite else { return nil }
            return Found(bytes: bytes, quality: quality, score: score)
        }
        /// The highest quality tried that fell short, and the lowest that reached the target.
        var short: Found?
        var reached: Found?
        /// How much each end's distance from the target counts in the line (Illinois' rule: the end kept twice
        /// in a row counts half as much each time, so the line cannot keep landing on one side).
        var pull = (short: 1.0, reached: 1.0)
        var lastReached: Bool?
        var quality = first
        /// How far the next try goes while the answer is not bracketed: nil until the first try's gap sets it.
        var step: Int?
        var previousWidth = 100
        while true {
            guard let found = try attempt(quality) else { return nil }
            let reachedNow = found.score >= target
            if reachedNow { reached = found } else { short = found }
            if lastReached == reachedNow {
                if reachedNow { pull.short /= 2 } else { pull.reached /= 2 }
            } else {
                pull = (1, 1)
            }
            lastReached = reachedNow
            let low = (short?.quality ?? 0) + 1
            if var answer = reached, answer.quality == low {
                answer.encodes = encodes
                return answer
            }
            if reached == nil, var answer = short, answer.quality == 100 {
                answer.encodes = encodes
                return answer
            }
            guard let short, let reached else {
                let gapInSteps = (abs(found.score - target) / search.pointsPerStep).rounded(.up)
                let stride = step ?? Int(min(max(gapInSteps, 1), 100))
                quality = reachedNow ? max(1, found.quality - stride) : min(100, found.quality + stride)
                step = 2 * stride
                continue
            }
            let width = reached.quality - low
            defer { previousWidth = width }
            if width > previousWidth / 2 || reached.score <= short.score {
                quality = (low + reached.quality - 1) / 2
                continue
            }
            // The line between the ends, score against quality, where it meets the target.
            let shortGap = (short.score - target) * pull.short
            let reachedGap = (reached.score - target) * pull.reached
            let line =
                Double(short.quality) + shortGap / (shortGap - reachedGap)
                * Double(reached.quality - short.quality)
            quality = min(max(Int(line.rounded(.up)), low), reached.quality - 1)
        }
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
