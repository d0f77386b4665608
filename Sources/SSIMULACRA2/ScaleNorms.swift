/// The six error norms of one channel at one scale: the mean (1-norm) and the 4-norm of the SSIM error map,
/// of the ringing map (the distorted picture has an edge where the original is smooth) and of the blurring map
/// (the original has an edge where the distorted picture is smooth).
struct ScaleNorms: Sendable {
    /// In the order the weights are read: SSIM, ringing and blurring 1-norms, then the same 4-norms.
    let values: [Double]

    init(original: BlurredChannel, distorted: BlurredChannel) {
        let mean1 = original.mean
        let mean2 = distorted.mean
        let square1 = original.meanOfSquare
        let square2 = distorted.meanOfSquare
        let product = RecursiveGaussian.blur(original.plane.multiplied(by: distorted.plane))
        var ssim = (0.0, 0.0)
        var ringing = (0.0, 0.0)
        var blurring = (0.0, 0.0)
        for index in original.plane.values.indices {
            let mu1 = mean1.values[index]
            let mu2 = mean2.values[index]
            // SSIM without the luminance term's denominator, which would weigh errors in the darks more.
            let luminance: Float = 1 - (mu1 - mu2) * (mu1 - mu2)
            let covariance = 2 * (product.values[index] - mu1 * mu2) + Self.c2
            let variances =
                (square1.values[index] - mu1 * mu1) + (square2.values[index] - mu2 * mu2) + Self.c2
            let error = max(1 - Double(luminance * covariance / variances), 0)
            ssim.0 += error
            ssim.1 += Self.fourth(error)
            let edge1 = Double(abs(original.plane.values[index] - mu1))
            let edge2 = Double(abs(distorted.plane.values[index] - mu2))
            let ratio = (1 + edge2) / (1 + edge1) - 1
            let artifact = max(ratio, 0)
            let detailLost = max(-ratio, 0)
            ringing.0 += artifact
            ringing.1 += Self.fourth(artifact)
            blurring.0 += detailLost
            blurring.1 += Self.fourth(detailLost)
        }
        let perPixel = 1 / Double(original.plane.values.count)
        let root = { (sum: Double) in (sum * perPixel).squareRoot().squareRoot() }
        values = [
            ssim.0 * perPixel, ringing.0 * perPixel, blurring.0 * perPixel,
            root(ssim.1), root(ringing.1), root(blurring.1),
        ]
    }

    @inline(__always)
    private static func fourth(_ value: Double) -> Double {
        let square = value * value
        return square * square
    }

    private static let c2: Float = 0.0009
}
