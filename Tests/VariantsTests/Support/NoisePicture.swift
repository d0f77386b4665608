@testable import Variants

/// Pseudo-random 8-bit pixels, the same on every run: every tap of a resampling kernel and every byte of a
/// pixel shows in what libvips makes of them.
enum NoisePicture {
    static func bytes(width: Int, height: Int, bands: Int) -> [UInt8] {
        var state: UInt32 = 0x9E37_79B9
        return (0..<width * height * bands).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// The same pixels as `bytes`, as a libvips image that owns a copy of them.
    static func image(width: Int, height: Int, bands: Int) throws -> VipsImage {
        try PixelImage.make(
            bytes(width: width, height: height, bands: bands), width: width, height: height, bands: bands)
    }
}
