/// The colour most of a picture is, from the same small RGBA rendition as its ThumbHash: a background a
/// client can paint before the picture arrives, as `"dominantColour": "#rrggbb"`.
///
/// Pixels are counted in a coarse histogram of 8 levels a channel, each weighed by its alpha, so a thin
/// outline or a blend at an edge does not outvote the colour that covers the most; the answer is the mean of
/// the fullest bin's pixels, so a flat colour comes back exactly.
enum DominantColour {
    /// Bits kept of each channel: 512 bins.
    private static let levelBits = 3

    /// `#rrggbb` in lower case; nil when every pixel is transparent.
    static func hex(rgba: [UInt8]) -> String? {
        let shift = 8 - levelBits
        var weights = [Int](repeating: 0, count: 1 << (3 * levelBits))
        var sums = [(red: Int, green: Int, blue: Int)](repeating: (0, 0, 0), count: weights.count)
        for pixel in stride(from: 0, to: rgba.count - 3, by: 4) {
            let (red, green, blue, alpha) = (
                Int(rgba[pixel]), Int(rgba[pixel + 1]), Int(rgba[pixel + 2]), Int(rgba[pixel + 3])
            )
            guard alpha > 0 else { continue }
            let bin = (red >> shift) << (2 * levelBits) | (green >> shift) << levelBits | blue >> shift
            weights[bin] += alpha
            sums[bin].red += red * alpha
            sums[bin].green += green * alpha
            sums[bin].blue += blue * alpha
        }
        guard let fullest = weights.indices.max(by: { weights[$0] < weights[$1] }), weights[fullest] > 0
        else { return nil }
        let weight = weights[fullest]
        let sum = sums[fullest]
        return "#"
            + [sum.red, sum.green, sum.blue].map { channel in
                let mean = (channel + weight / 2) / weight
                return (mean < 16 ? "0" : "") + String(mean, radix: 16)
            }.joined()
    }
}
