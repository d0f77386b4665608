import Foundation

@testable import Variants

/// Pixels made by a test, as a libvips image that owns a copy of them.
enum PixelImage {
    /// `pixels`: 8-bit, `bands` interleaved, row after row.
    static func make(_ pixels: [UInt8], width: Int, height: Int, bands: Int) throws -> VipsImage {
        let buffer = malloc(max(1, pixels.count))!
        pixels.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        return try VipsImage.adopting(
            pixels: buffer, width: width, height: height, bands: bands, release: { free($0) }, owner: buffer)
    }
}
