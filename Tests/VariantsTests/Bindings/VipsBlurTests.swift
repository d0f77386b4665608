import Testing

@testable import Variants

/// A blur mixes each pixel with its neighbours. With alpha, the colour of the transparent ones must not leak
/// into the edge of what shows, or a logo on a transparent ground gets a dark halo wherever it is displayed.
@Suite struct VipsBlurTests {
    /// A white opaque square on transparent black: every pixel the blur makes translucent is still white.
    @Test func blurredEdgeKeepsTheColourOfWhatShows() throws {
        let look = try LookPipeline(settings: #"{"width":40,"blur":2,"format":"png"}"#)
        let side = 40
        let pixels = (0..<side * side).flatMap { index -> [UInt8] in
            let (x, y) = (index % side, index / side)
            return (10..<30).contains(x) && (10..<30).contains(y) ? [255, 255, 255, 255] : [0, 0, 0, 0]
        }
        let source = try PixelImage.make(pixels, width: side, height: side, bands: 4).encodedAsPNG(effort: 1)

        let rendition = try VipsImage.load(.png, bytes: try look.rendition(of: source, path: "square.png"))
        #expect(rendition.header.bands == 4)
        let rendered = try rendition.pixelBytes()
        let edge = stride(from: 0, to: rendered.count, by: 4).filter { (16...239).contains(rendered[$0 + 3]) }
        #expect(edge.count > 40, "the blur made no translucent edge")
        let darkest = edge.map { rendered[$0..<$0 + 3].min() ?? 0 }.min() ?? 0
        #expect(darkest >= 250, "a translucent edge pixel is grey (\(darkest)) instead of white")
    }
}
