/// A picture in the XYB space of JPEG XL (the opsin absorbance mix, a cube root), shifted and scaled as the
/// metric wants it: every channel roughly in 0...1, with B − Y in place of B.
struct PositiveXYB: Sendable {
    let channels: [Plane]

    init(_ linear: LinearRGB) {
        let count = linear.width * linear.height
        let (reds, greens, blues) = (
            linear.channels[0].values, linear.channels[1].values, linear.channels[2].values
        )
        let (red, green, blue) = (reds.span, greens.span, blues.span)
        var x = [Float](repeating: 0, count: count)
        var y = [Float](repeating: 0, count: count)
        var b = [Float](repeating: 0, count: count)
        // Written through spans: an array written by subscript checks that its buffer is unique at every
        // write, which kept this loop from being vectorised.
        var outX = x.mutableSpan
        var outY = y.mutableSpan
        var outB = b.mutableSpan
        for index in 0..<count {
            let (r, g, bl) = (red[index], green[index], blue[index])
            let long = Self.absorbed(0.30 * r + 0.622 * g + 0.078 * bl)
            let medium = Self.absorbed(0.23 * r + 0.692 * g + 0.078 * bl)
            let short = Self.absorbed(Self.m20 * r + Self.m21 * g + Self.m22 * bl)
            let opsinX = 0.5 * (long - medium)
            let opsinY = 0.5 * (long + medium)
            outX[index] = opsinX * 14 + 0.42
            outY[index] = opsinY + 0.01
            outB[index] = (short - opsinY) + 0.55
        }
        channels = [x, y, b].map { Plane(width: linear.width, height: linear.height, values: $0) }
    }

    /// A cone's response to its linear mix: biased, cube root, the bias's root taken away (linear sRGB is never
    /// negative, so the mix never needs the reference's clip at zero).
    @inline(__always)
    private static func absorbed(_ mix: Float) -> Float {
        ElementaryFunctions.cubeRoot(mix + bias) - biasRoot
    }

    private static let m20: Float = 0.243_422_689_245_478_19
    private static let m21: Float = 0.204_767_444_244_968_21
    private static let m22: Float = 1 - m20 - m21
    private static let bias: Float = 0.003_793_073_255_275_449_3
    private static let biasRoot = ElementaryFunctions.cubeRoot(bias)
}
