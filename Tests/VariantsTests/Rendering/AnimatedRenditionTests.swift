import Foundation
import Testing

@testable import Variants

/// Animated GIF and WebP sources keep their animation in WebP renditions, resized and cropped like a still;
/// `"animated": false` and other formats take the first frame. Renditions are read back frame by frame from
/// their own RIFF chunks.
@Suite struct AnimatedRenditionTests {
    static let bucket = #"""
        { "name": "a", "variants": {
            "moving": { "width": 160, "height": 160, "fit": "inside", "format": "webp" },
            "square": { "width": 64, "height": 64, "fit": "cover", "format": "webp" },
            "still": { "width": 160, "height": 160, "fit": "inside", "format": "webp", "animated": false },
            "photo": { "width": 160, "height": 160, "fit": "inside", "format": "jpeg" } } }
        """#

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"),
        arguments: [
            "formats/gif-animated/animated-loop-3.gif", "formats/gif-animated/cogs.gif",
            "formats/gif-animated/dispose-background.gif", "formats/gif-animated/dispose-previous.gif",
            "formats/webp-animated/rotating-squares.webp", "formats/webp-animated/animated-loop-3.webp",
        ])
    func animationIsKeptFrameByFrame(path: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-anim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try RenditionFolder(root: root.path)
        let pipeline = try Pipeline(store: store)  // starts libvips before any image is opened
        let bytes = [UInt8](try Data(contentsOf: ColourConversionTests.corpus.appendingPathComponent(path)))
        let loader: VipsLoader = path.hasSuffix(".gif") ? .gif : .webp
        let source = try VipsImage.load(loader, bytes: bytes, allFrames: true)
        let frames = source.header.pages
        let expected = source.animation(frames: frames)
        let shown = expected.delays.map { $0 > 10 ? $0 : 100 }

        var timings = StageTimings()
        let metadata = try pipeline.run(
            RenditionOrder(
                ObjectRequest(bucket: "a", path: path),
                bucket: BucketDeclaration(parsing: Data(Self.bucket.utf8))),
            bytes: bytes, timings: &timings)
        let renditions = try #require(metadata.renditions)
        #expect(metadata.frames == frames)

        for name in ["moving", "square"] {
            let rendition = try #require(renditions[name])
            let written = try #require(store.existing(rendition.key))
            let file = try #require(WebPAnimation(written), "\(name) is not animated")
            #expect(file.frames.count == frames, "\(name)")
            #expect(file.frames.map(\.duration) == shown, "\(name)")
            #expect(Double(file.frames.map(\.duration).reduce(0, +)) == metadata.duration, "\(name)")
            #expect(file.loop == expected.loop, "\(name)")
            #expect(file.width == rendition.width && file.height == rendition.height, "\(name)")
            #expect(
                file.frames.allSatisfy { $0.x + $0.width <= file.width && $0.y + $0.height <= file.height })
        }
        #expect(renditions["square"]?.width == 64 && renditions["square"]?.height == 64)
        let still = try #require(renditions["still"])
        let stillBytes = try #require(store.existing(still.key))
        #expect(WebPAnimation(stillBytes) == nil)
        #expect(renditions["photo"]?.contentType == "image/jpeg")
    }
}

extension AnimatedRenditionTests {
    /// `original` keeps an animated WebP a WebP: what it renders depends on its own settings only, never on
    /// whether the bucket also declares a WebP variant; `"animated": false` takes the first frame under a
    /// key of its own.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"))
    func originalOfAnAnimatedWebPDependsOnItsOwnSettings() throws {
        let path = "formats/webp-animated/animated-loop-3.webp"
        let bytes = [UInt8](try Data(contentsOf: ColourConversionTests.corpus.appendingPathComponent(path)))
        func rendition(_ variants: String) throws -> (key: String, bytes: [UInt8]) {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "variantd-anim-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let store = try RenditionFolder(root: root.path)
            var timings = StageTimings()
            let metadata = try Pipeline(store: store).run(
                RenditionOrder(
                    ObjectRequest(bucket: "a", path: path),
                    bucket: BucketDeclaration(
                        parsing: Data(#"{"name": "a", "variants": {\#(variants)}}"#.utf8))),
                bytes: bytes, timings: &timings)
            let key = try #require(metadata.renditions?["kept"]?.key)
            return (key, try #require(store.existing(key)))
        }
        let kept = #""kept": {"width": 160, "format": "original"}"#
        let alone = try rendition(kept)
        let beside = try rendition(kept + #", "moving": {"width": 64, "format": "webp"}"#)
        #expect(alone.key == beside.key)
        #expect(WebPAnimation(alone.bytes) != nil)
        #expect(WebPAnimation(beside.bytes) != nil)

        let still = #""kept": {"width": 160, "format": "original", "animated": false}"#
        let stillAlone = try rendition(still)
        let stillBeside = try rendition(still + #", "moving": {"width": 64, "format": "webp"}"#)
        #expect(stillAlone.key == stillBeside.key && stillAlone.key != alone.key)
        #expect(WebPAnimation(stillAlone.bytes) == nil)
        #expect(WebPAnimation(stillBeside.bytes) == nil)
    }
}

/// An animated WebP's own chunks: the canvas (`VP8X`), the loop count (`ANIM`) and each frame (`ANMF`).
struct WebPAnimation {
    struct Frame {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var duration: Int
    }

    var width = 0
    var height = 0
    var loop = 0
    var frames: [Frame] = []

    /// nil for a still WebP (no `ANIM` chunk) or bytes that are not WebP.
    init?(_ bytes: [UInt8]) {
        guard bytes.count > 12, bytes[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        func le(_ at: Int, _ count: Int) -> Int {
            (0..<count).reversed().reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
        }
        var animated = false
        var offset = 12
        while offset + 8 <= bytes.count {
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let length = le(offset + 4, 4)
            let body = offset + 8
            guard body + length <= bytes.count else { return nil }
            switch type {
            case "VP8X":
                (width, height) = (le(body + 4, 3) + 1, le(body + 7, 3) + 1)
            case "ANIM":
                animated = true
                loop = le(body + 4, 2)
            case "ANMF":
                frames.append(
                    Frame(
                        x: le(body, 3) * 2, y: le(body + 3, 3) * 2, width: le(body + 6, 3) + 1,
                        height: le(body + 9, 3) + 1, duration: le(body + 12, 3)))
            default:
                break
            }
            offset = body + length + (length & 1)
        }
        guard animated else { return nil }
    }
}
