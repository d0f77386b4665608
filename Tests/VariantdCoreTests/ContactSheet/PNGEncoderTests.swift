import Testing

@testable import VariantdCore
@testable import Variants

@Suite struct PNGEncoderTests {
    @Test func checksumsMatchTheirKnownVectors() {
        #expect(PNGChecksums.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGChecksums.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGChecksums.crc32([]) == 0)
        #expect(PNGChecksums.adler32([]) == 1)
    }

    /// libvips (libpng, which checks every CRC, and zlib, which checks the Adler-32) reads back exactly the
    /// pixels written — at a size needing one stored block and at one needing two.
    @Test(arguments: [(3, 2), (200, 100)])
    func libvipsReadsBackThePixels(width: Int, height: Int) throws {
        _ = try Pipeline()
        let pixels = (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ $0 / 7) }
        let png = PNGEncoder.rgba(width: width, height: height, pixels: pixels)
        let image = try VipsImage.load(.png, bytes: png)
        #expect(image.width == width)
        #expect(image.height == height)
        #expect(image.hasAlpha)
        #expect(try image.pixelBytes() == pixels)
    }
}
