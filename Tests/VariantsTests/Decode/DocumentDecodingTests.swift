import Foundation
import Testing

@testable import Variants

/// TIFF and JPEG XL sources: generated files of known content, each rendition compared with another
/// program's render of the same file at the same size (mean difference per channel over a 16 × 16 reduction,
/// `Perceptual.distance`, within 2 %), and their metadata and refusals.
@Suite struct DocumentDecodingTests {
    init() throws {
        try Vips.start()
    }

    /// Runs `bytes` through a bucket whose one variant is `settings`; the metadata and the rendition.
    private func rendition(_ bytes: [UInt8], path: String, settings: String) throws -> (
        metadata: CompletionMetadata, image: VipsImage
    ) {
        let look = try LookPipeline(settings: settings)
        var timings = StageTimings()
        let metadata = try look.pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "look", path: path), bucket: look.bucket), bytes: bytes,
            timings: &timings)
        let key = try #require(metadata.renditions?["look"]?.key)
        let file = try #require(look.store.existing(key))
        return (metadata, try VipsImage.load(.png, bytes: file).materialized())
    }

    private func pixel(_ image: VipsImage, _ x: Int, _ y: Int) throws -> [Int] {
        let bands = image.header.bands
        let bytes = try image.pixelBytes()
        let start = (y * image.width + x) * bands
        return bytes[start..<start + min(3, bands)].map(Int.init)
    }

    private func refusal(_ bytes: [UInt8], path: String, limits: Limits = .default) throws -> VariantsError? {
        var timings = StageTimings()
        do {
            _ = try Pipeline(limits: limits).run(
                RenditionOrder(ObjectRequest(bucket: "b", path: path), bucket: nil), bytes: bytes,
                timings: &timings)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - TIFF

    /// Compared at full size with Debian's libvips converting it through the same profile at the same intent.
    @Test(.enabled(if: ReferenceRender.has("/usr/bin/vips"), "Debian's libvips CLI is absent"))
    func cmykTIFFConvertsThroughItsProfile() throws {
        let tiff = try Samples.bytes("documents/cmyk.tif")
        let (metadata, image) = try rendition(
            tiff, path: "cmyk.tif", settings: #"{"width":64,"format":"png"}"#)
        #expect(metadata.contentType == "image/tiff")
        #expect(metadata.pages == 1)
        #expect(image.width == 64 && image.height == 48)
        let reference = try ReferenceRender.png(
            of: tiff, named: "cmyk.tif", program: "/usr/bin/vips"
        ) { input, output in ["icc_transform", input, output, "srgb", "--embedded", "--intent", "perceptual"]
        }
        let distance = try Perceptual.distance(image, reference)
        let (ours, theirs) = (try pixel(image, 8, 6), try pixel(reference, 8, 6))
        #expect(distance < 0.02, "\(distance): \(ours) against \(theirs)")
    }

    @Test(.enabled(if: ReferenceRender.has("/usr/bin/vipsthumbnail"), "Debian's vipsthumbnail is absent"))
    func sixteenBitTiledTIFFIsReadToEightBits() throws {
        let tiff = TestTIFF.gradient(width: 64, height: 48, bitsPerSample: 16, tiled: true).bytes
        let (metadata, image) = try rendition(
            tiff, path: "deep.tif", settings: #"{"width":32,"format":"png"}"#)
        #expect(metadata.width == 64 && metadata.height == 48)
        let reference = try ReferenceRender.png(
            of: tiff, named: "deep.tif", program: "/usr/bin/vipsthumbnail"
        ) { input, output in [input, "-s", "32x24!", "-o", output] }
        #expect(try Perceptual.distance(image, reference) < 0.02)
        // Red rises left to right, green top to bottom, blue is half.
        let corner = try pixel(image, 31, 23)
        #expect(corner[0] > 230 && corner[1] > 220 && abs(corner[2] - 128) <= 2, "\(corner)")
    }

    @Test func multiPageTIFFCountsItsPagesAndShowsTheFirst() throws {
        var tiff = TestTIFF.gradient(width: 16, height: 8, bitsPerSample: 8, tiled: false)
        tiff.pages = 3
        let (metadata, _) = try rendition(
            tiff.bytes, path: "pages.tif", settings: #"{"width":16,"format":"png"}"#)
        #expect(metadata.pages == 3)
        #expect(metadata.width == 16 && metadata.height == 8)
        #expect(metadata.frames == nil)
    }

    @Test func tiffLyingAboutItsSizeIsUnreadable() throws {
        var tiff = TestTIFF.gradient(width: 16, height: 8, bitsPerSample: 8, tiled: false)
        tiff.declaredHeight = 4_000
        #expect(try refusal(tiff.bytes, path: "liar.tif")?.code == .unreadablePicture)
        tiff.declaredHeight = 100_000
        tiff.declaredWidth = 100_000
        #expect(try refusal(tiff.bytes, path: "huge.tif")?.reason == .tooManyPixels)
    }

    // MARK: - JPEG XL

    @Test(.enabled(if: ReferenceRender.has("/usr/bin/vipsthumbnail"), "Debian's vipsthumbnail is absent"))
    func jpegXLDecodes() throws {
        let jxl = try Samples.bytes("documents/gradient.jxl")
        let (metadata, image) = try rendition(jxl, path: "g.jxl", settings: #"{"width":32,"format":"png"}"#)
        #expect(metadata.contentType == "image/jxl")
        #expect(metadata.width == 64 && metadata.height == 48)
        let reference = try ReferenceRender.png(
            of: jxl, named: "g.jxl", program: "/usr/bin/vipsthumbnail"
        ) { input, output in [input, "-s", "32x24!", "-o", output] }
        #expect(try Perceptual.distance(image, reference) < 0.02)
    }

    @Test func truncatedJPEGXLIsUnreadable() throws {
        let jxl = try Samples.bytes("documents/gradient.jxl")
        #expect(try refusal(Array(jxl.prefix(jxl.count / 2)), path: "cut.jxl")?.code == .unreadablePicture)
    }
}
