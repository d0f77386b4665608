import Testing

@testable import VariantdCore
@testable import Variants

@Suite struct PNGEncoderTests {
    @Test func checksumsMatchTheirKnownVectors() {
        #expect(CRC32.checksum(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(CRC32.checksum([]) == 0)
        #expect(Adler32.checksum([]) == 1)
    }

    /// libvips (libpng, which checks every CRC, and zlib, which checks the Adler-32) reads back exactly the
    /// pixels written — at a size needing one stored block and at one needing two, with some transparency
    /// and opaque (written as RGB).
    @Test(arguments: [(3, 2, false), (200, 100, false), (3, 2, true), (200, 100, true)])
    func libvipsReadsBackThePixels(width: Int, height: Int, opaque: Bool) throws {
        _ = try Pipeline()
        let pixels = (0..<width * height * 4).map { index in
            opaque && index % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: index &* 37 &+ index / 7)
        }
        let png = PNGEncoder.rgba(width: width, height: height, pixels: pixels)
        let image = try VipsImage.load(.png, bytes: png)
        #expect(image.width == width)
        #expect(image.height == height)
        #expect(image.hasAlpha == !opaque)
        let expected = opaque ? pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) : pixels
        #expect(try image.pixelBytes() == expected)
    }
}
