import Foundation
import Testing

@testable import Variants

/// HEIF overlays (`iovl`) render as ISO/IEC 23008-12 composes them: libheif 1.19 for the overlays it gets
/// right, `HEIFOverlay` for those it refuses (a tile placed twice) or gets wrong (a tile at a negative offset
/// is left out). The samples in `Samples/pictures/overlay` (made as `Samples/generators/overlay/README.md`
/// says) place solid tiles on a grey canvas; every rendition is checked point by point against a reference
/// composition worked out here.
@Suite struct HEIFOverlayTests {
    private struct Tile {
        var width: Int
        var height: Int
        var colour: (Int, Int, Int)
    }

    private static let tiles = [
        Tile(width: 64, height: 48, colour: (220, 30, 30)),
        Tile(width: 64, height: 48, colour: (30, 200, 40)),
        Tile(width: 64, height: 64, colour: (40, 50, 210)),
        Tile(width: 48, height: 32, colour: (230, 220, 40)),
        Tile(width: 32, height: 32, colour: (200, 40, 200)),
    ]
    private static let grey = (128, 128, 128)

    /// Overlapping tiles, one across the right and bottom edges, one wholly outside: libheif composes it.
    @Test func libheifComposesOverlaysWithoutNegativeOffsets() throws {
        let bytes = try Samples.bytes("pictures/overlay/overlay-inside.heic")
        #expect(try HEIFOverlay(composing: bytes, maxPlacements: 100) == nil)
        try expectComposition(
            "pictures/overlay/overlay-inside.heic", fill: Self.grey,
            placed: [(0, 8, 8), (1, 40, 30), (2, 120, 80), (3, 16, 100), (4, 200, 150)])
    }

    /// The same with a tile across the top-left corner (offset −16, −12), which libheif leaves out.
    @Test(arguments: ["pictures/overlay/overlay-edges.heic", "pictures/overlay/overlay-edges.avif"])
    func negativeOffsetsAreComposedHere(file: String) throws {
        let overlay = try #require(try HEIFOverlay(composing: try Samples.bytes(file), maxPlacements: 100))
        #expect(overlay.placements.map(\.x) == [8, 40, 120, -16, 200])
        #expect(overlay.fill == [0x8080, 0x8080, 0x8080, 0xFFFF] && !overlay.hasAlpha)
        try expectComposition(
            file, fill: Self.grey,
            placed: [(0, 8, 8), (1, 40, 30), (2, 120, 80), (3, -16, -12), (4, 200, 150)])
    }

    /// The overlays again, turned a quarter anticlockwise (`irot` 1) then mirrored (`imir` 0, top to bottom):
    /// together a transpose. libheif turns the one it composes; the one composed here is turned the same way.
    @Test func turnedOverlaysShowTheirCanvasTransposed() throws {
        #expect(
            try HEIFOverlay(
                composing: try Samples.bytes("pictures/overlay/overlay-inside-turned.heic"),
                maxPlacements: 100)
                == nil)
        try expectComposition(
            "pictures/overlay/overlay-inside-turned.heic", fill: Self.grey,
            placed: [(0, 8, 8), (1, 40, 30), (2, 120, 80), (3, 16, 100), (4, 200, 150)], transposed: true)
        let overlay = try #require(
            try HEIFOverlay(
                composing: try Samples.bytes("pictures/overlay/overlay-edges-turned.heic"), maxPlacements: 100
            ))
        #expect(overlay.orientation == 5)
        try expectComposition(
            "pictures/overlay/overlay-edges-turned.heic", fill: Self.grey,
            placed: [(0, 8, 8), (1, 40, 30), (2, 120, 80), (3, -16, -12), (4, 200, 150)], transposed: true)
    }

    /// The turned overlays cropped to a clean aperture (`clap`) first: libheif crops the one it composes; the
    /// one composed here is cropped to what libheif works out from the same property, then turned.
    @Test func croppedOverlaysShowTheirApertureTransposed() throws {
        let inside = try Samples.bytes("pictures/overlay/overlay-inside-cropped.heic")
        #expect(try HEIFOverlay(composing: inside, maxPlacements: 100) == nil)
        try expectComposition(
            "pictures/overlay/overlay-inside-cropped.heic", fill: Self.grey,
            placed: [(0, 8, 8), (1, 40, 30), (2, 120, 80), (3, 16, 100), (4, 200, 150)], cropped: true,
            transposed: true)
        let edges = try Samples.bytes("pictures/overlay/overlay-edges-cropped.heic")
        let overlay = try #require(try HEIFOverlay(composing: edges, maxPlacements: 100))
        #expect(overlay.hasCleanAperture && overlay.orientation == 5)
        try expectComposition(
            "pictures/overlay/overlay-edges-cropped.heic", fill: Self.grey,
            placed: [(0, 8, 8), (1, 40, 30), (2, 120, 80), (3, -16, -12), (4, 200, 150)], cropped: true,
            transposed: true)
    }

    /// A crop listed after the turns is refused rather than guessed at (the standard crops first).
    @Test func aCropAfterATurnIsRefused() throws {
        let bytes = try Samples.bytes("pictures/overlay/overlay-edges-cropped-late.heic")
        let error = #expect(throws: VariantsError.self) {
            try HEIFOverlay(composing: bytes, maxPlacements: 100)
        }
        #expect(error?.reason == .unsupportedFeature)
    }

    /// Only `irot` and `imir` turn the picture: any other property, even an empty one, is passed over; an
    /// empty turn is corrupt.
    @Test func onlyTurnsAndMirrorsAreRead() throws {
        let empty = HEIFMeta.Property(type: "xxxx", contents: [])
        let quarter = HEIFMeta.Property(type: "irot", contents: [1])
        #expect(try HEIFOverlay.Turn([empty, quarter]).exifOrientation == 8)
        #expect(throws: VariantsError.self) {
            try HEIFOverlay.Turn([HEIFMeta.Property(type: "imir", contents: [])])
        }
    }

    /// Every rotation with either mirror, written into the turned overlay libheif composes: the orientation
    /// `HEIFOverlay.Turn` makes of the properties, applied to the overlay without them, shows what libheif
    /// shows.
    @Test(arguments: 0..<4, 0..<2)
    func everyTurnAndMirrorMatchesLibheif(quarterTurns: Int, mode: Int) throws {
        var bytes = try Samples.bytes("pictures/overlay/overlay-inside-turned.heic")
        for (type, value) in [("irot", quarterTurns), ("imir", mode)] {
            let at = try #require(
                bytes.indices.dropLast(5).first { bytes[$0..<$0 + 4].elementsEqual(type.utf8) })
            bytes[at + 4] = UInt8(value)
        }
        let meta = try #require(HEIFMeta(bytes))
        let orientation = try HEIFOverlay.Turn(meta.properties(of: meta.primary)).exifOrientation
        let plain = try Self.decode(try Samples.bytes("pictures/overlay/overlay-inside.heic"))
        plain.setOrientation(orientation)
        let turned = try plain.autorotated()
        let shown = try Self.decode(bytes)
        #expect(turned.width == shown.width && turned.height == shown.height)
        #expect(try Self.meanDifference(turned, shown) < 0.5, "irot \(quarterTurns), imir \(mode)")
    }

    /// One tile placed twice (its item referenced twice, as in Nokia's C021): libheif refuses the file.
    @Test func repeatedTileIsComposedHere() throws {
        let bytes = try Samples.bytes("pictures/overlay/overlay-repeated-tile.heic")
        let limits = HeifContainer.Limits(
            maxPixels: 1 << 28, maxMemoryBlock: 1 << 30, maxItems: 1000, maxTiles: 1000, threads: 1)
        #expect(throws: BackendError.self) { try HeifContainer(bytes: bytes, limits: limits) }
        try expectComposition(
            "pictures/overlay/overlay-repeated-tile.heic", fill: (16, 32, 96),
            placed: [(0, 0, 0), (0, 96, 72), (1, 48, 36)])
    }

    /// C021's overlay (the coded picture shown at 0, 0 and at −640, −360 on a 640 × 360 canvas) made the
    /// displayed item: the picture's bottom-right quarter, exactly.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: HEIFReferenceRepairTests.c021.path),
            "../shared/corpus is absent"))
    func c021OverlayShowsTheBottomRightQuarter() throws {
        let original = [UInt8](try Data(contentsOf: HEIFReferenceRepairTests.c021))
        let overlay = try Self.showingOverlay(original)
        let composed = try Self.decode(overlay)
        #expect(composed.width == 640 && composed.height == 360)
        let whole = try Self.decode(original)
        let bottomRight = try whole.cropped(left: 640, top: 360, width: 640, height: 360)
        let topLeft = try whole.cropped(left: 0, top: 0, width: 640, height: 360)
        #expect(try Self.meanDifference(composed, bottomRight) < 0.5)
        #expect(try Self.meanDifference(composed, topLeft) > 5)
    }

    /// C016's overlay (the coded picture at 80, 120 on a black 1440 × 960 canvas), which libheif composes.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: HEIFReferenceRepairTests.c021.path),
            "../shared/corpus is absent"))
    func c016OverlayIsComposedByLibheif() throws {
        let original = [UInt8](
            try Data(
                contentsOf: HEIFReferenceRepairTests.c021.deletingLastPathComponent().appendingPathComponent(
                    "nokia-C016.heic")))
        let overlay = try Self.showingOverlay(original)
        #expect(try HEIFOverlay(composing: overlay, maxPlacements: 100) == nil)
        let composed = try Self.decode(overlay)
        #expect(composed.width == 1440 && composed.height == 960)
        let placed = try composed.cropped(left: 80, top: 120, width: 1280, height: 720)
        #expect(try Self.meanDifference(placed, try Self.decode(original)) < 0.5)
        let border = try composed.cropped(left: 0, top: 0, width: 80, height: 960).pixelBytes()
        #expect(border.allSatisfy { $0 < 4 })
    }

    @Test func hostileOverlaysAreRefusedWithTypedErrors() throws {
        let bytes = try Samples.bytes("pictures/overlay/overlay-repeated-tile.heic")
        #expect(throws: VariantsError.self) { try HEIFOverlay(composing: bytes, maxPlacements: 2) }
        // An overlay description whose canvas is 0 × 0 (zeros past the fill colour).
        let meta = try #require(HEIFMeta(bytes))
        let payload = try #require(meta.data(of: meta.primary))
        let at = try #require(
            bytes.indices.dropLast(payload.count).first {
                bytes[$0..<$0 + payload.count].elementsEqual(payload)
            })
        var cut = bytes
        cut.replaceSubrange(
            at + 10..<at + payload.count, with: [UInt8](repeating: 0, count: payload.count - 10))
        #expect(throws: VariantsError.self) { try HEIFOverlay(composing: cut, maxPlacements: 100) }
        #expect(
            try HEIFOverlay(composing: try Samples.bytes("pictures/rgb-29x100.heif"), maxPlacements: 100)
                == nil)
    }

    @Test func metaReadsReferencesInOrderWithRepeats() throws {
        let meta = try #require(HEIFMeta(try Samples.bytes("pictures/overlay/overlay-repeated-tile.heic")))
        #expect(meta.primaryType == "iovl")
        #expect(meta.references.map(\.to) == [[1, 1, 2]])
        #expect(meta.hasRepeatedReference)
        // Version and flags, the fill colour, the canvas size, three pairs of 16-bit offsets.
        let expectedSize = 2 + 8 + 4 + 12
        #expect(meta.data(of: meta.primary)?.count == expectedSize)
        #expect(HEIFMeta([0, 0, 0, 8, 0x6D, 0x65, 0x74, 0x61]) == nil)
    }

    // MARK: - Helpers

    /// Renders `file` at its own size and compares every eighth pixel with the reference composition:
    /// `placed` lists (tile, x, y) in drawing order on the 160 × 120 canvas. A `cropped` file shows only the
    /// 100 × 80 of it from (20, 26) (the samples' clean aperture); a `transposed` one shows the canvas turned
    /// and mirrored about its diagonal (displayed x, y from canvas y, x).
    private func expectComposition(
        _ file: String, fill: (Int, Int, Int), placed: [(Int, Int, Int)], cropped: Bool = false,
        transposed: Bool = false
    ) throws {
        let image = try Self.decode(try Samples.bytes(file))
        let (left, top, shownWidth, shownHeight) = cropped ? (20, 26, 100, 80) : (0, 0, 160, 120)
        let (width, height) = transposed ? (shownHeight, shownWidth) : (shownWidth, shownHeight)
        #expect(image.width == width && image.height == height)
        let pixels = try image.pixelBytes()
        let bands = image.header.bands
        for y in stride(from: 4, to: height, by: 8) {
            for x in stride(from: 4, to: width, by: 8) {
                let (canvasX, canvasY) = transposed ? (left + y, top + x) : (left + x, top + y)
                var expected = fill
                for (index, left, top) in placed {
                    let tile = Self.tiles[index]
                    if canvasX >= left, canvasX < left + tile.width, canvasY >= top,
                        canvasY < top + tile.height
                    {
                        expected = tile.colour
                    }
                }
                let at = (y * width + x) * bands
                let actual = (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
                let close =
                    abs(actual.0 - expected.0) <= 12 && abs(actual.1 - expected.1) <= 12
                    && abs(actual.2 - expected.2) <= 12
                #expect(close, "\(file) at \(x), \(y): \(actual), expected \(expected)")
            }
        }
    }

    /// The decode every rendition comes from, at full size.
    private static func decode(_ bytes: [UInt8]) throws -> VipsImage {
        let picture = try OpenedPicture(bytes: bytes, type: .heic, limits: Limits())
        return try picture.decode { ($0, $1) }.image
    }

    /// A copy of a Nokia conformance file whose `pitm` names its overlay (item 1003) instead of its coded
    /// picture (1002).
    private static func showingOverlay(_ bytes: [UInt8]) throws -> [UInt8] {
        let pitm = try #require(
            bytes.indices.dropLast(8).first { bytes[$0..<$0 + 4].elementsEqual("pitm".utf8) })
        var copy = bytes
        copy.replaceSubrange(pitm + 8..<pitm + 10, with: [0x03, 0xEB])
        return copy
    }

    private static func meanDifference(_ a: VipsImage, _ b: VipsImage) throws -> Double {
        let (left, right) = (try a.pixelBytes(), try b.pixelBytes())
        try #require(left.count == right.count)
        return Double(zip(left, right).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(left.count)
    }
}
