/// SSIMULACRA 2, Jon Sneyers' perceptual metric (as published with JPEG XL's tools, version 2.1): how close a
/// distorted picture looks to its original, 100 for identical pixels, about 90 where no flicker test tells
/// them apart, 70 for high quality, 50 for medium, 30 for low.
///
/// Both pictures go to linear sRGB, then to XYB; at six scales (1:1 to 1:32, halved in linear light) each XYB
/// channel gives an SSIM error map and two edge maps (ringing, blurring), each summarised by its mean and its
/// 4-norm; the 108 numbers are weighted, summed and mapped to the score.
public enum SSIMULACRA2 {
    /// The score of `distorted` against `original`, which must be the same size.
    public static func score(original: SRGBPicture, distorted: SRGBPicture) throws(SSIMULACRA2Error) -> Double
    {
        guard original.width == distorted.width, original.height == distorted.height else {
            throw .sizeMismatch(
                original: [original.width, original.height], distorted: [distorted.width, distorted.height])
        }
        let backgrounds: [Float] = original.hasAlpha ? [0.1, 0.9] : [0.5]
        var lowest = Double.infinity
        for background in backgrounds {
            let score = score(
                LinearRGB(original, background: background), LinearRGB(distorted, background: background))
            lowest = min(lowest, score)
        }
        return lowest
    }

    private static func score(_ original: LinearRGB, _ distorted: LinearRGB) -> Double {
        var scales: [[ScaleNorms]] = []
        var first = original
        var second = distorted
        for scale in 0..<6 {
            // The size checked is the previous scale's: a picture 8 to 15 pixels high still gets its last halving.
            guard first.width >= 8, first.height >= 8 else { break }
            if scale > 0 {
                first = first.halved()
                second = second.halved()
            }
            let xyb1 = PositiveXYB(first)
            let xyb2 = PositiveXYB(second)
            scales.append(
                (0..<3).map { ScaleNorms(original: xyb1.channels[$0], distorted: xyb2.channels[$0]) })
        }
        return ScoreMapping.score(scales)
    }
}
