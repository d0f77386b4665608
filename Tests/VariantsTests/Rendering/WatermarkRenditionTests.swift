import Foundation
import Testing

@testable import Variants

/// A bucket's watermark placed on renditions: a solid red logo over a solid blue picture, whose blended
/// pixels are known to the unit.
@Suite struct WatermarkRenditionTests {
    private static let background = SolidPNG.make(width: 200, height: 120, rgba: [0, 0, 255, 255])
    private static let logo = SolidPNG.make(width: 20, height: 10, rgba: [255, 0, 0, 255])

    private static func bucket(_ watermark: String, variant: String = #""format": "png""#) throws
        -> BucketDeclaration
    {
        let declaration = """
            {"name": "b", "watermarks": {"logo": {"file": "logo.png", \(watermark)}},
             "variants": {"v": {"width": 200, "watermark": "logo", \(variant)}}}
            """
        return try BucketDeclaration(parsing: declaration.utf8) { (_) throws(VariantsError) in Self.logo }
    }

    /// The one rendition of the background under `bucket`, decoded: its size, bands and pixels.
    private func rendered(_ bucket: BucketDeclaration) throws -> (
        width: Int, height: Int, bands: Int, pixels: [UInt8]
    ) {
        var timings = StageTimings()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try RenditionFolder(root: root.path)
        let metadata = try Pipeline(store: store).run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "p.png"), bucket: bucket), bytes: Self.background,
            timings: &timings)
        let rendition = try #require(metadata.renditions?["v"])
        let loader: VipsLoader = rendition.contentType == "image/jpeg" ? .jpeg : .png
        let image = try VipsImage.load(loader, bytes: try #require(store.existing(rendition.key)))
        let header = image.header
        return (header.width, header.height, header.bands, try image.pixelBytes())
    }

    /// The logo, 0.25 of 200 wide (50 × 25 by its aspect ratio), against the edges its position names,
    /// 16 pixels in: inside it red at half opacity over blue, (127.5, 0, 127.5) to within rounding; outside
    /// it the blue untouched.
    @Test(arguments: [
        ("southeast", 134, 79), ("northwest", 16, 16), ("centre", 75, 47), ("north", 75, 16),
        ("west", 16, 47), ("southwest", 16, 79),
    ])
    func theOverlayLandsWhereDeclaredAtItsOpacity(position: String, x: Int, y: Int) throws {
        let bucket = try Self.bucket(
            #""position": "\#(position)", "margin": 16, "opacity": 0.5, "width": 0.25"#)
        let output = try rendered(bucket)
        #expect(output.width == 200 && output.height == 120)
        func pixel(_ px: Int, _ py: Int) -> [Int] {
            let start = (py * output.width + px) * output.bands
            return output.pixels[start..<start + 3].map(Int.init)
        }
        // The logo's edges are resampled; its inside is one colour.
        for (px, py) in [
            (x + 2, y + 2), (x + 47, y + 2), (x + 2, y + 22), (x + 47, y + 22), (x + 25, y + 12),
        ] {
            let blended = pixel(px, py)
            #expect(
                (127...128).contains(blended[0]) && blended[1] == 0 && (127...128).contains(blended[2]),
                "\(px),\(py): \(blended)")
        }
        for (px, py) in [(x - 1, y + 12), (x + 50, y + 12), (x + 25, y - 1), (x + 25, y + 25)] {
            #expect(pixel(px, py) == [0, 0, 255], "\(px),\(py)")
        }
    }

    /// Fully opaque, the logo's own colour; in a JPEG (no alpha), the same place.
    @Test func opaqueInAJPEG() throws {
        let bucket = try Self.bucket(
            #""position": "northeast", "margin": 0, "opacity": 1, "width": 0.5"#,
            variant: #""format": "jpeg""#)
        let output = try rendered(bucket)
        #expect(output.bands == 3)
        let inside = (20 * output.width + 150) * 3
        let outside = (20 * output.width + 50) * 3
        #expect(output.pixels[inside] > 240 && output.pixels[inside + 2] < 15)
        #expect(output.pixels[outside] < 15 && output.pixels[outside + 2] > 240)
    }
}
