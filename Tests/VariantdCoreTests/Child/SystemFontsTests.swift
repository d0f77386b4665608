import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore
@testable import Variants

/// Text in a font the file does not carry, drawn by a sealed decoder child with the system's fonts: a PDF's
/// unembedded Helvetica and an SVG's `<text>` come out as poppler's `pdftoppm` and librsvg's `rsvg-convert`
/// draw them, while everything but the fonts stays out of reach.
@Suite struct SystemFontsTests {
    private static let pool = PipelinePool.overFiles(.init(executable: TestPaths.variantd, size: 1))

    /// A 200 × 60 pt page saying "Hello" in 40 pt Helvetica, which it names and does not embed.
    static let helloPDF: [UInt8] = {
        let content = "BT /F1 40 Tf 10 15 Td (Hello) Tj ET"
        let objects = [
            "<</Type/Catalog/Pages 2 0 R>>", "<</Type/Pages/Kids[3 0 R]/Count 1>>",
            "<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 60]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>",
            "<</Length \(content.utf8.count)>>\nstream\n\(content)\nendstream",
            "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>",
        ]
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let table = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            text += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n"
        }
        text += "trailer\n<</Size \(objects.count + 1)/Root 1 0 R>>\nstartxref\n\(table)\n%%EOF\n"
        return Array(text.utf8)
    }()

    /// "Hello" in 40 px sans-serif on white, 200 × 60.
    static let helloSVG = Array(
        (#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" "#
            + #"fill="white"/><text x="10" y="45" font-family="sans-serif" font-size="40">Hello</text></svg>"#)
            .utf8)

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm"), "pdftoppm is absent"))
    func pdfTextInAnUnembeddedFontIsDrawn() async throws {
        let drawn = try await rendition(of: Self.helloPDF, named: "hello.pdf", width: 400)
        let reference = try Self.reference(
            of: Self.helloPDF, named: "hello.pdf", program: "/usr/bin/pdftoppm"
        ) {
            ["-png", "-singlefile", "-scale-to", "400", $0, String($1.dropLast(4))]
        }
        try expectSameText(drawn, reference)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert"),
            "rsvg-convert is absent"))
    func svgTextIsDrawn() async throws {
        let drawn = try await rendition(of: Self.helloSVG, named: "hello.svg", width: 200)
        let reference = try Self.reference(
            of: Self.helloSVG, named: "hello.svg", program: "/usr/bin/rsvg-convert"
        ) {
            [$0, "-o", $1]
        }
        try expectSameText(drawn, reference)
    }

    /// Reading the fonts opens nothing else: an `<image>` naming a file on this machine draws nothing, and
    /// the child that drew text goes on to draw it again.
    @Test func anSVGStillReadsNoFileOfTheMachine() async throws {
        for reference in ["file:///etc/passwd", "/etc/hostname", "file:///etc/fonts/fonts.conf"] {
            let svg = Array(
                (#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" "#
                    + #"height="20" fill="lime"/><image x="0" y="20" width="40" height="20" "#
                    + #"href="\#(reference)"/></svg>"#).utf8)
            let image = try await rendition(of: svg, named: "refs.svg", width: 40)
            #expect(try pixel(image, 20, 10) == [0, 255, 0], "\(reference)")
            #expect(try pixel(image, 20, 30) == [0, 0, 0], "\(reference): the image was read")
        }
    }

    /// The bytes through a sealed child, rendered as a PNG `width` pixels wide.
    private func rendition(of bytes: [UInt8], named name: String, width: Int) async throws -> VipsImage {
        let declaration =
            #"{"name": "b", "allowedMimeTypes": ["image/*", "application/pdf"], "variants": "#
            + #"{"v": {"width": \#(width), "format": "png"}}}"#
        let bucket = try BucketDeclaration(parsing: declaration.utf8)
        let answer = await Self.pool.fulfil(
            RenditionOrder(ObjectRequest(bucket: "b", path: name), bucket: bucket),
            from: RenditionSource(.inHand(.bytes(bytes), checksum: nil), listed: []))
        #expect(answer.error == nil, "\(name): \(String(describing: answer.error))")
        let file = try #require(answer.files.first, "\(name) has no rendition")
        return try VipsImage.load(.png, bytes: file.bytes).materialized()
    }

    /// Another program's render of the bytes: `arguments(input, output)` makes it write a PNG to `output`.
    private static func reference(
        of bytes: [UInt8], named name: String, program: String,
        arguments: (_ input: String, _ output: String) -> [String]
    ) throws -> VipsImage {
        try VipsImage.load(
            .png,
            bytes: try ReferenceProgram.png(of: bytes, named: name, program: program, arguments: arguments))
    }

    /// The text's pixels (red below 128: the text is black on white) are where the reference has them: at
    /// least 3 % of the picture is text, and the two differ on under 2 % of the pixels (the edges of the
    /// glyphs, anti-aliased a little differently).
    private func expectSameText(_ drawn: VipsImage, _ reference: VipsImage) throws {
        #expect(drawn.width == reference.width && drawn.height == reference.height)
        let ours = try darkPixels(drawn)
        let theirs = try darkPixels(reference)
        let total = Double(ours.count)
        let text = Double(ours.filter { $0 }.count) / total
        let differing = Double(zip(ours, theirs).filter { $0 != $1 }.count) / total
        #expect(text > 0.03, "text covers \(text) of the picture")
        #expect(differing < 0.02, "text differs from the reference on \(differing) of the picture")
    }

    private func darkPixels(_ image: VipsImage) throws -> [Bool] {
        let bands = image.header.bands
        return try image.pixelBytes().enumerated().filter { $0.offset % bands == 0 }.map { $0.element < 128 }
    }

    private func pixel(_ image: VipsImage, _ x: Int, _ y: Int) throws -> [Int] {
        let bands = image.header.bands
        let start = (y * image.width + x) * bands
        return try image.pixelBytes()[start..<start + min(3, bands)].map(Int.init)
    }
}
