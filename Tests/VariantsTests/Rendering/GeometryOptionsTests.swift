import Foundation
import Testing

@testable import Variants

/// `flip`, `dpr`, `focus` and `trim` rendered end to end on generated pictures whose right answer is known,
/// each read back from the file written.
@Suite struct GeometryOptionsTests {
    /// A picture's pixels, 8-bit RGB, row after row.
    struct Picture: Equatable {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) {
            self.width = width
            self.height = height
            pixels = (0..<height).flatMap { y in
                (0..<width).flatMap { x in
                    let (r, g, b) = pixel(x, y)
                    return [r, g, b]
                }
            }
        }

        init(decoding bytes: [UInt8]) throws {
            let image = try VipsImage.load(.png, bytes: bytes)
            try #require(image.header.bands == 3)
            width = image.width
            height = image.height
            pixels = try image.pixelBytes()
        }

        subscript(x: Int, y: Int) -> [UInt8] {
            Array(pixels[(y * width + x) * 3..<(y * width + x) * 3 + 3])
        }

        func png() throws -> [UInt8] {
            try PixelImage.make(pixels, width: width, height: height, bands: 3).encodedAsPNG(effort: 1)
        }

        func jpeg() throws -> [UInt8] {
            try JPEGEncoder.encode(
                PixelImage.make(pixels, width: width, height: height, bands: 3), quality: 90,
                progressive: false, optimizedCoding: false)
        }

        var mirroredLeftToRight: Picture {
            Picture(width: width, height: height) { x, y in
                let p = self[width - 1 - x, y]
                return (p[0], p[1], p[2])
            }
        }

        var mirroredTopToBottom: Picture {
            Picture(width: width, height: height) { x, y in
                let p = self[x, height - 1 - y]
                return (p[0], p[1], p[2])
            }
        }

        /// A quarter turn clockwise.
        var turned: Picture {
            Picture(width: height, height: width) { x, y in
                let p = self[y, height - 1 - x]
                return (p[0], p[1], p[2])
            }
        }
    }

    /// A picture no mirror or turn leaves the same: every pixel tells where it came from.
    static let asymmetric = Picture(width: 7, height: 5) { x, y in
        (UInt8(x * 36), UInt8(y * 60), UInt8((x * 7 + y * 13) % 256))
    }

    /// The rendition of `bytes` the query asks for, as a transform made alone, read back from the store.
    private func render(_ bytes: [UInt8], _ query: String) throws -> [UInt8] {
        let options = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (name: String(parts[0]), value: String(parts[1]))
        }
        let spec = try Transform(query: options, accept: nil).spec
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-geometry-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: root.path) }
        let store = try RenditionFolder(root: root.path)
        var timings = StageTimings()
        let metadata = try Pipeline(store: store).run(
            RenditionOrder(
                ObjectRequest(bucket: "b", path: "p"), rendering: RenditionOutput(spec, wanted: true),
                among: []),
            bytes: bytes, timings: &timings)
        let key = try #require(metadata.renditions?[Transform.name]?.key)
        return try #require(store.existing(key))
    }

    @Test func flipMirrorsPixelForPixel() throws {
        let source = try Self.asymmetric.png()
        let mirrored = try Picture(decoding: render(source, "flip=h&format=png"))
        #expect(mirrored == Self.asymmetric.mirroredLeftToRight)
        let upsideDown = try Picture(decoding: render(source, "flip=v&format=png"))
        #expect(upsideDown == Self.asymmetric.mirroredTopToBottom)
        let both = try Picture(decoding: render(source, "flip=hv&format=png"))
        #expect(both == Self.asymmetric.mirroredTopToBottom.mirroredLeftToRight)
    }

    @Test func flipComesAfterTheRotation() throws {
        let source = try Self.asymmetric.png()
        let rendered = try Picture(decoding: render(source, "rotate=90&flip=h&format=png"))
        #expect(rendered == Self.asymmetric.turned.mirroredLeftToRight)
        let declared = try LookPipeline(
            settings: #"{"width": 5, "rotate": 90, "flip": "h", "format": "png"}"#)
        #expect(try Picture(decoding: declared.rendition(of: source, path: "p")) == rendered)
    }

    @Test func dprMultipliesBothSides() throws {
        let source = try Picture(width: 400, height: 300) { x, y in (UInt8(x % 256), UInt8(y % 256), 9) }
            .png()
        let single = try #require(EncodedFile(render(source, "width=100&height=60&format=png")))
        let double = try #require(EncodedFile(render(source, "width=100&height=60&dpr=2&format=png")))
        #expect((single.width, single.height) == (100, 60))
        #expect((double.width, double.height) == (200, 120))
        let fraction = try #require(EncodedFile(render(source, "width=101&dpr=1.5&format=png")))
        #expect(fraction.width == 152)
    }

    /// A white strip 400×100 with a red dot at x 118…122, and on the right a patch of saturated noise, which
    /// is what an attention crop goes for; a centre crop keeps x 150…249.
    static let dotted = Picture(width: 400, height: 100) { x, y in
        if (118...122).contains(x) && (48...52).contains(y) { return (255, 0, 0) }
        if x >= 320 {
            let noise = UInt8(truncatingIfNeeded: (x &* 7919 &+ y &* 104_729) &* 2_654_435_761 >> 13)
            return (noise, 255 &- noise, noise / 2)
        }
        return (255, 255, 255)
    }

    /// Where the reddest pixel of a picture is.
    private func dot(in picture: Picture) -> (x: Int, y: Int, redness: Int) {
        var best = (x: 0, y: 0, redness: Int.min)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture[x, y]
                let redness = Int(p[0]) - Int(p[1]) / 2 - Int(p[2]) / 2
                if redness > best.redness { best = (x, y, redness) }
            }
        }
        return best
    }

    @Test func focusKeepsTheDotWhereCentreAndAttentionLoseIt() throws {
        let source = try Self.dotted.png()
        let focused = try Picture(decoding: render(source, "width=100&height=100&focus=0.3,0.5&format=png"))
        #expect((focused.width, focused.height) == (100, 100))
        // The crop starts at 0.3 × 400 − 50 = 70, so the dot, x 118…122, is at 48…52.
        let found = dot(in: focused)
        #expect(found.redness > 200 && (48...52).contains(found.x) && (48...52).contains(found.y))
        #expect(focused[50, 50] == [255, 0, 0])
        for position in ["centre", "attention"] {
            let cropped = try Picture(
                decoding: render(source, "width=100&height=100&position=\(position)&format=png"))
            #expect(dot(in: cropped).redness < 200, "\(position) keeps the dot")
        }
    }

    @Test func focusIsMovedOnlyAsFarAsTheEdge() throws {
        let source = try Self.dotted.png()
        // 0.3 × 400 − 125 is before the left edge: the crop starts at 0, and the dot stays at its own x.
        let edge = try Picture(decoding: render(source, "width=250&height=100&focus=0.3,0.5&format=png"))
        #expect((edge.width, edge.height) == (250, 100))
        #expect(edge[120, 50] == [255, 0, 0] && edge[0, 0] == [255, 255, 255])
        // Turned a quarter, the strip stands 100×400 and the point follows it, to x 0.5, y 0.3: the crop
        // starts at y 70, and the dot, turned to x 47…51, y 118…122, is at y 48…52.
        let turned = try Picture(
            decoding: render(source, "width=100&height=100&focus=0.3,0.5&rotate=90&format=png"))
        #expect((turned.width, turned.height) == (100, 100))
        #expect(turned[49, 50] == [255, 0, 0])
    }

    /// A 200×150 picture inside a border 13 left, 7 top, 21 right and 17 bottom of `border`.
    private static func framed(
        border: (UInt8, UInt8, UInt8), inside: @escaping (Int, Int) -> (UInt8, UInt8, UInt8)
    )
        -> Picture
    {
        Picture(width: 13 + 200 + 21, height: 7 + 150 + 17) { x, y in
            let (ix, iy) = (x - 13, y - 7)
            guard (0..<200).contains(ix), (0..<150).contains(iy) else { return border }
            return inside(ix, iy)
        }
    }

    @Test func trimFindsTheBorderOfAPhoto() throws {
        // Smooth light and shade with grain, nowhere near the border's pale grey.
        let photo = Self.framed(border: (236, 236, 236)) { x, y in
            let grain = Int(UInt8(truncatingIfNeeded: (x &* 31 &+ y &* 17) &* 2_654_435_761 >> 7)) % 24
            return (UInt8(40 + x / 2 + grain), UInt8(60 + y / 2 + grain / 2), UInt8(120 - y / 3 + grain))
        }
        let trimmed = try #require(EncodedFile(render(try photo.jpeg(), "trim=10&format=png")))
        #expect(abs(trimmed.width - 200) <= 1 && abs(trimmed.height - 150) <= 1, "\(trimmed)")
    }

    @Test func trimFindsTheBorderOfFlatArt() throws {
        // Three flat shapes whose outer edges are the box's: a blue bar along the top, a red block bottom left,
        // a green one right.
        let art = Self.framed(border: (255, 255, 255)) { x, y in
            if y < 20 { return (20, 40, 200) }
            if x < 60 && y >= 90 { return (220, 30, 30) }
            if x >= 170 { return (30, 160, 60) }
            return (255, 255, 255)
        }
        let trimmed = try Picture(decoding: render(try art.png(), "trim=10&format=png"))
        #expect((trimmed.width, trimmed.height) == (200, 150))
        #expect(trimmed[0, 0] == [20, 40, 200] && trimmed[0, 149] == [220, 30, 30])
        #expect(trimmed[199, 149] == [30, 160, 60])
        // Trimmed, then sized: the box applies to what is left.
        let sized = try #require(EncodedFile(render(try art.png(), "trim=10&width=100&format=png")))
        #expect((sized.width, sized.height) == (100, 75))
    }

    @Test func trimLeavesAPictureWithoutBorderWhole() throws {
        let source = try Self.asymmetric.png()
        #expect(try Picture(decoding: render(source, "trim=10&format=png")) == Self.asymmetric)
    }
}
