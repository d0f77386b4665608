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
        try Original(original).score(distorted)
    }

    /// An original prepared once (its XYB planes and their blurs at every scale) to score several distorted
    /// versions of it, as a quality search does: each score then costs about half as much.
    public struct Original: Sendable {
        private let width: Int
        private let height: Int
        /// One set of scales per background the original's alpha is blended over (one when it has none).
        private let backgrounds: [(background: Float, scales: [[BlurredChannel]])]

        public init(_ picture: SRGBPicture) {
            width = picture.width
            height = picture.height
            let backgrounds: [Float] = picture.hasAlpha ? [0.1, 0.9] : [0.5]
            self.backgrounds = backgrounds.map { background in
                (background, Self.scales(of: LinearRGB(picture, background: background)))
            }
        }

        /// The score of `distorted`, which must be the original's size.
        public func score(_ distorted: SRGBPicture) throws(SSIMULACRA2Error) -> Double {
            guard distorted.width == width, distorted.height == height else {
                throw .sizeMismatch(
                    original: [width, height], distorted: [distorted.width, distorted.height])
            }
            var lowest = Double.infinity
            for (background, originalScales) in backgrounds {
                let distortedScales = Self.scales(of: LinearRGB(distorted, background: background))
                let norms = zip(originalScales, distortedScales).map { original, distorted in
                    (0..<3).map { ScaleNorms(original: original[$0], distorted: distorted[$0]) }
                }
                lowest = min(lowest, ScoreMapping.score(norms))
            }
            return lowest
        }

        /// Every scale's three XYB channels with their blurs.
        private static func scales(of picture: LinearRGB) -> [[BlurredChannel]] {
            var scales: [[BlurredChannel]] = []
            var linear = picture
            for scale in 0..<6 {
                // The size checked is the previous scale's: a picture 8 to 15 pixels high still gets its last
                // halving.
                guard linear.width >= 8, linear.height >= 8 else { break }
                if scale > 0 { linear = linear.halved() }
                scales.append(PositiveXYB(linear).channels.map(BlurredChannel.init))
            }
            return scales
        }
    }
}
