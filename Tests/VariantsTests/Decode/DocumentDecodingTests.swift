import Foundation
import Testing

@testable import Variants

/// PDF, SVG, TIFF and JPEG XL sources: generated files of known content, each rendition compared with another
/// program's render of the same file at the same size (mean difference per channel over a 16 × 16 reduction,
/// `Perceptual.distance`, within 2 %), and their metadata and refusals.
@Suite struct DocumentDecodingTests {
    init() throws {
        try Vips.start()
    }

    /// A 200 × 100 pt page turned a quarter clockwise by `/Rotate 90`, with a red 40 pt square 20 pt from its
    /// left and bottom edges; then a second, blank page.
    static let rotatedPage = TestPDF(pages: [
        .init(width: 200, height: 100, rotate: 90, content: "1 0 0 rg 20 20 40 40 re f"),
        .init(width: 100, height: 100),
    ]).bytes

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

    // MARK: - PDF

    @Test(.enabled(if: ReferenceRender.has("/usr/bin/pdftoppm"), "pdftoppm (poppler-utils) is absent"))
    func pdfFirstPageIsRenderedTurnedByItsRotate() throws {
        let (metadata, image) = try rendition(
            Self.rotatedPage, path: "page.pdf", settings: #"{"width":100,"format":"png"}"#)
        #expect(metadata.contentType == "application/pdf")
        #expect(metadata.pages == 2)
        #expect(metadata.pageSize == PageSize(width: 100, height: 200))
        // At 144 dpi, twice the points.
        #expect(metadata.width == 200 && metadata.height == 400)
        #expect(image.width == 100 && image.height == 200)
        // Half a pixel a point: the square, turned with the page, now lies 10 to 30 px from the top left.
        #expect(try pixel(image, 20, 20) == [255, 0, 0])
        #expect(try pixel(image, 20, 100) == [255, 255, 255])
        #expect(try pixel(image, 80, 20) == [255, 255, 255])
        let reference = try ReferenceRender.png(
            of: Self.rotatedPage, named: "page.pdf", program: "/usr/bin/pdftoppm"
        ) { input, output in
            ["-png", "-singlefile", "-scale-to", "200", input, String(output.dropLast(4))]
        }
        #expect(reference.width == 100 && reference.height == 200)
        #expect(try Perceptual.distance(image, reference) < 0.02)
    }

    @Test func encryptedPDFIsRefusedWithItsOwnReason() throws {
        var pdf = TestPDF(pages: [.init(width: 100, height: 100, content: "0 0 1 rg 0 0 50 50 re f")])
        pdf.encrypted = true
        let error = try #require(try refusal(pdf.bytes, path: "locked.pdf"))
        #expect(error.statusCode == 422)
        #expect(error.reason == .encrypted)
    }

    @Test func pdfOverThePageLimitIsRefused() throws {
        let error = try #require(try refusal(Self.rotatedPage, path: "two.pdf", limits: Limits(maxPages: 1)))
        #expect(error.reason == .tooManyPages)
    }

    @Test func hugePDFPageIsRefusedBeforeItIsDrawn() throws {
        let poster = TestPDF(pages: [.init(width: 14_400, height: 14_400, content: "0 0 1 rg 0 0 50 50 re f")]
        )
        #expect(try refusal(poster.bytes, path: "poster.pdf")?.reason == .tooManyPixels)
    }

    @Test func pdfWithoutPagesIsCorrupt() throws {
        #expect(try refusal(TestPDF(pages: []).bytes, path: "none.pdf")?.reason == .corrupt)
    }

    @Test func truncatedPDFIsUnreadable() throws {
        let bytes = Self.rotatedPage
        for cut in [10, bytes.count / 3, bytes.count / 2] {
            let error = try #require(try refusal(Array(bytes.prefix(cut)), path: "cut.pdf"), "cut at \(cut)")
            #expect([.truncated, .corrupt].contains(error.reason), "cut at \(cut): \(error)")
        }
    }

    // MARK: - SVG

    /// A blue 60 × 30 rectangle at (10, 20), in a document with neither `viewBox` nor `width` and `height`.
    static let unsizedDrawing = Array(
        #"<svg xmlns="http://www.w3.org/2000/svg"><rect x="10" y="20" width="60" height="30" fill="blue"/></svg>"#
            .utf8)

    @Test(.enabled(if: ReferenceRender.has("/usr/bin/rsvg-convert"), "rsvg-convert (librsvg2-bin) is absent"))
    func svgWithoutASizeIsTheSizeOfWhatItDraws() throws {
        let (metadata, image) = try rendition(
            Self.unsizedDrawing, path: "drawing.svg", settings: #"{"width":60,"format":"png"}"#)
        #expect(metadata.contentType == "image/svg+xml")
        // The rectangle's size, drawn from the document's origin: the part right of x 60 and below y 30 is cut.
        #expect(metadata.width == 60 && metadata.height == 30)
        #expect(try pixel(image, 5, 5) == [0, 0, 0])
        #expect(try pixel(image, 40, 25) == [0, 0, 255])
        let reference = try ReferenceRender.png(
            of: Self.unsizedDrawing, named: "drawing.svg", program: "/usr/bin/rsvg-convert"
        ) { input, output in [input, "-o", output] }
        #expect(reference.width == 60 && reference.height == 30)
        #expect(try Perceptual.distance(image, reference) < 0.02)
    }

    /// An `<image>` naming a file on this machine, absolutely and by a relative path, and one over HTTP: none is
    /// read, and the drawing around them renders.
    @Test func svgReadsNothingOutsideTheFile() throws {
        let png = Samples.root.appendingPathComponent("pictures/gradient-alpha.png").path
        for reference in [
            "file:///etc/passwd", "file://\(png)", png, "../pictures/gradient-alpha.png",
            "http://127.0.0.1:9/x.png",
        ] {
            let svg = Array(
                (#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" "#
                    + #"width="40" height="40"><rect width="40" height="20" fill="lime"/>"#
                    + #"<image x="0" y="20" width="40" height="20" href="\#(reference)" "#
                    + #"xlink:href="\#(reference)"/></svg>"#).utf8)
            let (_, image) = try rendition(svg, path: "refs.svg", settings: #"{"width":40,"format":"png"}"#)
            #expect(try pixel(image, 20, 10) == [0, 255, 0], "\(reference)")
            #expect(try pixel(image, 20, 30) == [0, 0, 0], "\(reference): the image was read")
        }
    }

    @Test func svgEntityBombEndsTyped() throws {
        var svg = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a0 "lol">"#
        for level in 1...12 {
            svg += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        svg += #"]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&a12;</text></svg>"#
        let error = try #require(try refusal(Array(svg.utf8), path: "laughs.svg"))
        #expect(error.code == .unreadablePicture)
    }

    @Test func svgNestedTooDeepEndsTyped() throws {
        let depth = 100_000
        let svg =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#
            + String(repeating: "<g>", count: depth) + String(repeating: "</g>", count: depth) + "</svg>"
        let error = try #require(try refusal(Array(svg.utf8), path: "deep.svg"))
        #expect(error.code == .unreadablePicture)
    }

    @Test func svgOfHugeCanvasIsRefusedBeforeItIsDrawn() throws {
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>"#
        #expect(try refusal(Array(svg.utf8), path: "huge.svg")?.reason == .tooManyPixels)
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
