/// A picture's three channels in linear-light sRGB, the space the metric downsamples in.
struct LinearRGB: Sendable {
    var channels: [Plane]

    var width: Int { channels[0].width }
    var height: Int { channels[0].height }

    /// Linearises a picture, blending it over `background` (an sRGB value in 0...1) first when it has alpha.
    init(_ picture: SRGBPicture, background: Float) {
        let count = picture.width * picture.height
        var red = [Float](repeating: 0, count: count)
        var green = red
        var blue = red
        // Written through spans, as `PositiveXYB` is, for the same reason.
        var reds = red.mutableSpan
        var greens = green.mutableSpan
        var blues = blue.mutableSpan
        let pixels = picture.pixels.span
        if picture.hasAlpha {
            // Every (alpha, value) pair's blend, linearised once rather than per pixel.
            let blends = (0..<65_536).map { pair in
                let alpha = Float(pair >> 8) / 255
                return Self.linear(alpha * (Float(pair & 255) / 255) + (1 - alpha) * background)
            }
            let blend = blends.span
            for pixel in 0..<count {
                let alpha = Int(pixels[4 * pixel + 3]) << 8
                reds[pixel] = blend[alpha | Int(pixels[4 * pixel])]
                greens[pixel] = blend[alpha | Int(pixels[4 * pixel + 1])]
                blues[pixel] = blend[alpha | Int(pixels[4 * pixel + 2])]
            }
        } else {
            let opaque = Self.opaque.span
            for pixel in 0..<count {
                reds[pixel] = opaque[Int(pixels[3 * pixel])]
                greens[pixel] = opaque[Int(pixels[3 * pixel + 1])]
                blues[pixel] = opaque[Int(pixels[3 * pixel + 2])]
            }
        }
        channels = [red, green, blue].map { Plane(width: picture.width, height: picture.height, values: $0) }
    }

    private init(channels: [Plane]) {
        self.channels = channels
    }

    /// The next scale: half the size, averaged in linear light.
    func halved() -> LinearRGB {
        LinearRGB(channels: channels.map { $0.halved() })
    }

    /// The sRGB transfer function, inverted (IEC 61966-2-1).
    static func linear(_ encoded: Float) -> Float {
        guard encoded > 0.04045 else { return encoded / 12.92 }
        return Float(ElementaryFunctions.power(Double((encoded + 0.055) / 1.055), 2.4))
    }

    private static let opaque: [Float] = (0...255).map { linear(Float($0) / 255) }
}
