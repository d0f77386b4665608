import Testing

@testable import Variants

/// The dominant colour of generated pictures whose answer is known: the colour that covers the most, as
/// the pipeline reports it in the completion metadata.
@Suite struct DominantColourTests {
    /// `width` × `height` RGBA pixels: `first` left of column `split`, `second` from it on.
    private func twoColours(
        width: Int, height: Int, split: Int, _ first: [UInt8], _ second: [UInt8]
    ) -> [UInt8] {
        (0..<width * height).flatMap { index in index % width < split ? first : second }
    }

    private func measured(_ pixels: [UInt8], width: Int, height: Int) throws -> CompletionMetadata {
        let pipeline = try Pipeline()  // starts libvips, which encodes the PNG
        let png = try PixelImage.make(pixels, width: width, height: height, bands: 4).encodedAsPNG(effort: 1)
        var timings = StageTimings()
        return try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "two.png"), bucket: nil), bytes: png,
            timings: &timings)
    }

    /// Either colour wins when it covers more, so the answer cannot come from the order of the pixels.
    @Test(arguments: [(60, "#c81e28"), (30, "#143cdc")])
    func theLargerOfTwoColoursWins(split: Int, expected: String) throws {
        let (red, blue): ([UInt8], [UInt8]) = ([200, 30, 40, 255], [20, 60, 220, 255])
        let pixels = twoColours(width: 90, height: 40, split: split, red, blue)
        #expect(try measured(pixels, width: 90, height: 40).dominantColour == expected)
    }

    /// A picture larger than the ThumbHash's rendition is measured after its reduction: the blend along the
    /// border between the colours does not move the answer by more than rounding.
    @Test func aReducedPictureKeepsItsColour() throws {
        let pixels = twoColours(
            width: 400, height: 300, split: 250, [10, 130, 70, 255], [240, 240, 240, 255])
        let colour = try #require(try measured(pixels, width: 400, height: 300).dominantColour)
        let channels = stride(from: 1, to: 7, by: 2).map {
            Int(colour.dropFirst($0).prefix(2), radix: 16) ?? -1
        }
        #expect(zip(channels, [10, 130, 70]).allSatisfy { abs($0 - $1) <= 2 }, "\(colour)")
    }

    /// Transparent pixels count for nothing, however many: the opaque third is the colour seen.
    @Test func transparentPixelsDoNotCount() throws {
        let pixels = twoColours(width: 90, height: 30, split: 30, [250, 200, 0, 255], [0, 0, 255, 0])
        #expect(try measured(pixels, width: 90, height: 30).dominantColour == "#fac800")
        #expect(DominantColour.hex(rgba: [1, 2, 3, 0, 4, 5, 6, 0]) == nil)
    }

    @Test func nonPicturesHaveNone() throws {
        var timings = StageTimings()
        let table = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "a.csv"), bucket: nil),
            bytes: try Samples.bytes("other/sizes.csv"), timings: &timings)
        #expect(table.dominantColour == nil)
    }
}
