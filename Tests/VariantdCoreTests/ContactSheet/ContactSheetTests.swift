import Foundation
import Testing
import ThumbHash
import VariantdTestSupport

@testable import VariantdCore
@testable import Variants

/// The contact sheet from hand-written manifests: what it shows, what it leaves out, and that every piece
/// of a line's text is escaped.
@Suite struct ContactSheetTests {
    static let hash = "3/cJNJqAh3dwd3eIiHZwgAf3iA=="

    static func picture(_ path: String, size: Int = 1000, key: String = "ab/abc/1.webp") -> String {
        """
        {"bucket":"b","checksumSha256":"00","contentType":"image/jpeg","height":200,"path":"\(path)",\
        "renditions":{"thumb":{"checksumSha256":"11","contentType":"image/webp","height":100,"key":"\(key)",\
        "size":500,"width":160},"large":{"checksumSha256":"22","contentType":"image/jpeg","height":1000,\
        "key":"ab/abc/2.jpg","size":9000,"width":1600}},"size":\(size),"thumbhash":"\(hash)","width":320}
        """
    }

    static let lines = [
        // An earlier failure of a/one.jpg, replaced by the line after it.
        #"{"error":"internal_error","message":"busy","path":"a/one.jpg","statusCode":500}"#,
        picture("a/one.jpg"),
        #"{"error":"unreadable_picture","message":"ends <early>","path":"b/<script>x.jpg","#
            + #""reason":"truncated","statusCode":422}"#,
        #"{"error":"unsupported_media_type","message":"bucket 'b' does not take application/pdf","#
            + #""path":"c.pdf","statusCode":415}"#,
        "not a record",
        #"{"checksumSha256":"33","contentType":"application/octet-stream","path":"d.bin","size":10}"#,
    ]

    private struct Folder {
        let root: URL
        var output: String { root.path + "/out" }

        init(_ lines: [String]) throws {
            root = try TestPaths.temporaryDirectory()
            try FileManager.default.createDirectory(
                atPath: root.path + "/out", withIntermediateDirectories: true)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: URL(fileURLWithPath: root.path + "/out/manifest.jsonl"))
        }
    }

    @Test func theLastLineOfAPathCountsAndEveryTextIsEscaped() throws {
        let folder = try Folder(Self.lines)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let html = folder.root.path + "/pages/sheet.html"
        try FileManager.default.createDirectory(
            atPath: folder.root.path + "/pages", withIntermediateDirectories: true)
        let totals = try ContactSheet(output: folder.output, html: html, run: nil).write()
        #expect(
            totals
                == .init(
                    objects: 4, ok: 2, unreadable: 1, unsupported: 1, errors: 0, renditions: 2, bytesIn: 1010,
                    bytesOut: 9500, superseded: 1, unreadableLines: 1))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!page.contains("<script"))
        #expect(page.contains("<code>b/&lt;script&gt;x.jpg</code> ends &lt;early&gt;"))
        #expect(!page.contains("internal_error"))
        // Renditions link from the page's folder to the store, the smallest first, at most 256 px a side.
        let thumb = try #require(
            page.range(of: #"src="../out/renditions/ab/abc/1.webp" width="160" height="100""#))
        let large = try #require(
            page.range(of: #"src="../out/renditions/ab/abc/2.jpg" width="256" height="160""#))
        #expect(thumb.lowerBound < large.lowerBound)
        #expect(page.components(separatedBy: #"loading="lazy""#).count == 3)
        // An unsupported type is not a failure, as in the batch's progress and summary: the errors hold the
        // unreadable picture alone, and the file the bucket does not take has a section of its own after them.
        let errors = try #require(page.range(of: #"<h2 id="errors">Errors (1)</h2>"#))
        let unreadable = try #require(
            page.range(of: "<code>422 unreadable_picture</code> · truncated — 1 file"))
        let unsupportedSection = try #require(page.range(of: #"<h2 id="unsupported">Unsupported (1)</h2>"#))
        let unsupported = try #require(page.range(of: "<code>415 unsupported_media_type</code> — 1 file"))
        #expect(errors.lowerBound < unreadable.lowerBound)
        #expect(unreadable.lowerBound < unsupportedSection.lowerBound)
        #expect(unsupportedSection.lowerBound < unsupported.lowerBound)
        #expect(page.contains("<h3>d.bin</h3>"))
        // Nothing is left beside the page.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.root.path + "/pages") == ["sheet.html"]
        )
    }

    @Test func reportCommandWritesWhereToldAndRefusesAFolderWithoutAManifest() async throws {
        let folder = try Folder(Self.lines)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let html = folder.root.path + "/elsewhere/page.html"
        try FileManager.default.createDirectory(
            atPath: folder.root.path + "/elsewhere", withIntermediateDirectories: true)
        let run = try await VariantdProcess.run(["report", folder.output, "--html", html])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Report: \(html) (4 objects, 1 failed, 1 unsupported)\n")
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("../out/renditions/ab/abc/1.webp"))
        let empty = try await VariantdProcess.run(["report", folder.root.path + "/elsewhere"])
        #expect(empty.status == 66)
        #expect(empty.stderr.contains("manifest.jsonl does not exist"))
    }

    /// Two names a file system keeps apart are two objects, even when Unicode calls them equivalent: a
    /// batch gives `café.jpg` in NFC and in NFD a line each, and the page shows both.
    @Test func namesEqualOnlyUnderUnicodeNormalisationAreTwoObjects() throws {
        let composed = "caf\u{E9}.jpg"
        let decomposed = "cafe\u{301}.jpg"
        #expect(Array(composed.utf8) != Array(decomposed.utf8))
        let folder = try Folder([Self.picture(composed), Self.picture(decomposed)])
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let html = folder.output + "/report.html"
        let totals = try ContactSheet(output: folder.output, html: html, run: nil).write()
        #expect(totals.objects == 2)
        #expect(totals.superseded == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.components(separatedBy: "<article>").count - 1 == 2)
    }

    /// A page kept in the rendition store itself (an index beside the files) links them from its own folder,
    /// not from the root of the disk or of the site serving it.
    @Test func aPageInTheRenditionStoreLinksFromItsOwnFolder() throws {
        let folder = try Folder([Self.picture("p.jpg")])
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let html = folder.output + "/renditions/index.html"
        _ = try ContactSheet(output: folder.output, html: html, run: nil).write()
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains(#"src="./ab/abc/1.webp""#))
        #expect(!page.contains(#"src="/"#))
    }

    /// The inline placeholder is our ThumbHash decode, as a PNG that libvips reads back pixel for pixel.
    @Test func thePlaceholderIsTheDecodedHashAsAnInlinePNG() throws {
        let folder = try Folder([Self.picture("p.jpg")])
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let html = folder.output + "/report.html"
        _ = try ContactSheet(output: folder.output, html: html, run: nil).write()
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let start = try #require(page.range(of: "data:image/png;base64,"))
        let end = try #require(page[start.upperBound...].firstIndex(of: "\""))
        let png = try #require(Data(base64Encoded: String(page[start.upperBound..<end])))
        _ = try Pipeline()
        let image = try VipsImage.load(.png, bytes: [UInt8](png))
        let decoded = try ThumbHash(base64: Self.hash).decode()
        #expect(image.width == decoded.width)
        #expect(image.height == decoded.height)
        // An opaque placeholder is written as RGB.
        #expect(!image.hasAlpha)
        let rgb = decoded.rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(try image.pixelBytes() == rgb)
    }

    /// Many objects (10,000 are measured with `variantd report` in docs/Batch.md; a debug build takes a
    /// minute over them): every object is on the page once, with lazily loaded renditions.
    @Test func manyObjectsMakeOnePage() throws {
        var lines: [String] = []
        for index in 0..<1_000 {
            lines.append(
                index % 100 == 0
                    ? #"{"error":"unreadable_picture","message":"m","path":"bad/\#(index).jpg","#
                        + #""reason":"corrupt","statusCode":422}"#
                    : Self.picture("photos/\(index).jpg", key: "k/\(index).webp"))
        }
        let folder = try Folder(lines)
        defer { try? FileManager.default.removeItem(at: folder.root) }
        let html = folder.output + "/report.html"
        let totals = try ContactSheet(output: folder.output, html: html, run: nil).write()
        #expect(totals.objects == 1_000)
        #expect(totals.unreadable == 10)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.components(separatedBy: "<article>").count - 1 == 990)
        #expect(page.components(separatedBy: #"loading="lazy""#).count - 1 == 1_980)
        #expect(page.contains("<code>422 unreadable_picture</code> · corrupt — 10 files"))
    }
}
