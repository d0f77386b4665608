import Testing

@testable import SSIMULACRA2

@Suite struct SSIMULACRA2Tests {
    /// A picture with detail at every scale: a gradient crossed by a pattern of period 7.
    private func pattern(width: Int, height: Int, layout: SRGBPicture.Layout) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8((x * 255) / width), UInt8((y * 255) / height), UInt8(((x * y) % 7) * 36)]
                if layout == .rgba { pixels.append(UInt8((x + y) % 3 == 0 ? 0 : 255)) }
            }
        }
        return pixels
    }

    @Test(arguments: [SRGBPicture.Layout.rgb, .rgba])
    func identicalPicturesScore100(layout: SRGBPicture.Layout) throws {
        let picture = try SRGBPicture(
            width: 64, height: 40, layout: layout, pixels: pattern(width: 64, height: 40, layout: layout))
        #expect(try SSIMULACRA2.score(original: picture, distorted: picture) == 100)
    }

    @Test func aChangedPictureScoresLessAndALargerChangeLessStill() throws {
        let pixels = pattern(width: 64, height: 40, layout: .rgb)
        let original = try SRGBPicture(width: 64, height: 40, layout: .rgb, pixels: pixels)
        let slight = try SRGBPicture(
            width: 64, height: 40, layout: .rgb, pixels: pixels.map { $0 < 250 ? $0 + 4 : $0 })
        let strong = try SRGBPicture(
            width: 64, height: 40, layout: .rgb, pixels: pixels.map { $0 < 215 ? $0 + 40 : $0 })
        let slightScore = try SSIMULACRA2.score(original: original, distorted: slight)
        let strongScore = try SSIMULACRA2.score(original: original, distorted: strong)
        #expect(slightScore < 100)
        #expect(strongScore < slightScore)
    }

    /// Colour under fully transparent pixels is not seen on any background, so it cannot count.
    @Test func colourUnderTransparentPixelsDoesNotCount() throws {
        var pixels = pattern(width: 32, height: 32, layout: .rgba)
        let original = try SRGBPicture(width: 32, height: 32, layout: .rgba, pixels: pixels)
        for pixel in stride(from: 0, to: pixels.count, by: 4) where pixels[pixel + 3] == 0 {
            pixels[pixel] = 255 - pixels[pixel]
        }
        let recoloured = try SRGBPicture(width: 32, height: 32, layout: .rgba, pixels: pixels)
        #expect(try SSIMULACRA2.score(original: original, distorted: recoloured) == 100)
    }

    @Test func picturesOfDifferentSizesAreRefused() throws {
        let small = try SRGBPicture(
            width: 16, height: 8, layout: .rgb, pixels: [UInt8](repeating: 9, count: 16 * 8 * 3))
        let large = try SRGBPicture(
            width: 8, height: 16, layout: .rgb, pixels: [UInt8](repeating: 9, count: 16 * 8 * 3))
        #expect(throws: SSIMULACRA2Error.sizeMismatch(original: [16, 8], distorted: [8, 16])) {
            try SSIMULACRA2.score(original: small, distorted: large)
        }
    }

    @Test func picturesUnder8PixelsOrWithTheWrongByteCountAreRefused() {
        #expect(throws: SSIMULACRA2Error.tooSmall(width: 7, height: 100)) {
            try SRGBPicture(width: 7, height: 100, layout: .rgb, pixels: [UInt8](repeating: 0, count: 2100))
        }
        #expect(throws: SSIMULACRA2Error.bufferSize(expected: 256, got: 192)) {
            try SRGBPicture(width: 8, height: 8, layout: .rgba, pixels: [UInt8](repeating: 0, count: 192))
        }
    }
}
