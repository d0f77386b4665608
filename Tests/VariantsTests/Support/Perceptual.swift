@testable import Variants

/// A perceptual distance between two pictures: both reduced to 16 × 16 sRGB, then the mean absolute
/// difference per channel in 0…1. Robust to encoder and resampler differences, sensitive to content.
enum Perceptual {
    static func distance(_ a: VipsImage, _ b: VipsImage) throws -> Double {
        let left = try tiny(a)
        let right = try tiny(b)
        let total = zip(left, right).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(left.count) / 255
    }

    private static func tiny(_ image: VipsImage) throws -> [UInt8] {
        var rgb = image
        if rgb.hasAlpha { rgb = try rgb.flattened(background: (0, 0, 0)) }
        return try rgb.resized(toWidth: 16, height: 16).pixelBytes()
    }
}
