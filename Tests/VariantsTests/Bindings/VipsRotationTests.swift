import Testing

@testable import Variants

/// Setup patches libvips' quarter and half turns (scripts/patches) to copy pixels as whole units instead of
/// byte by byte. Each turn, of every pixel size we hand libvips, whole and through a window, must put every
/// byte where turning the picture by hand puts it.
@Suite struct VipsRotationTests {
    init() throws {
        try Vips.start()
    }

    /// The bytes of the picture turned clockwise by `degrees`, computed here pixel by pixel.
    private func turned(_ bytes: [UInt8], width: Int, height: Int, bands: Int, degrees: Int) -> [UInt8] {
        let (outWidth, outHeight) = degrees == 180 ? (width, height) : (height, width)
        var out = [UInt8](repeating: 0, count: bytes.count)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                let (sourceX, sourceY) =
                    switch degrees {
                    case 90: (y, height - 1 - x)
                    case 180: (width - 1 - x, height - 1 - y)
                    default: (width - 1 - y, x)
                    }
                for band in 0..<bands {
                    out[(y * outWidth + x) * bands + band] = bytes[(sourceY * width + sourceX) * bands + band]
                }
            }
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 4])
    func turnsMoveEveryByteWhereTurningByHandDoes(bands: Int) throws {
        let (width, height) = (37, 23)
        let bytes = NoisePicture.bytes(width: width, height: height, bands: bands)
        for degrees in [90, 180, 270] {
            let expected = turned(bytes, width: width, height: height, bands: bands, degrees: degrees)
            let image = try NoisePicture.image(width: width, height: height, bands: bands).rotated(
                degrees: degrees)
            let outWidth = image.header.width
            #expect(try image.pixelBytes() == expected, "\(degrees)°, \(bands) bands")

            let window = try NoisePicture.image(width: width, height: height, bands: bands)
                .rotated(degrees: degrees).cropped(left: 3, top: 5, width: 7, height: 4)
            var expectedWindow: [UInt8] = []
            for row in 5..<9 {
                let start = (row * outWidth + 3) * bands
                expectedWindow += expected[start..<start + 7 * bands]
            }
            #expect(try window.pixelBytes() == expectedWindow, "\(degrees)°, \(bands) bands, window")
        }
    }
}
