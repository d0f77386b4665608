import Foundation
import Testing

@testable import Variants

/// Videos' poster frames (`Samples/videos`, see `Samples/generators/video`): the first keyframe at or after
/// 1 s, shown as the display matrix turns it, or the first frame of a clip without one; compared with the
/// frame FFmpeg's own command line shows at the same time, and with what the clips were made to show.
@Suite struct VideoPosterTests {
    /// Clips shown 64 × 96 whose frame at 1 s is blue with a white marker at the shown top right.
    static let portraits: [(file: String, type: MediaType, codec: String)] = [
        ("portrait-h264.mp4", .mp4, "h264"), ("portrait-hevc.mov", .quickTime, "hevc"),
        ("portrait-vp9.webm", .webm, "vp9"), ("portrait-av1.webm", .webm, "av1"),
        ("portrait-h264.mkv", .matroska, "h264"),
    ]

    @Test(arguments: portraits)
    func posterIsTheKeyframeAtOneSecondShownPortrait(file: String, type: MediaType, codec: String) throws {
        let (metadata, poster) = try Self.poster(of: file)
        #expect(metadata.contentType == type.mimeType)
        #expect(metadata.codec == codec)
        #expect(metadata.width == 64 && metadata.height == 96)
        #expect(abs((metadata.duration ?? 0) - 2) < 0.05, "\(String(describing: metadata.duration))")
        #expect(metadata.hasAlpha == false && metadata.frames == nil && metadata.toneMapped == nil)
        #expect(poster.width == 64 && poster.height == 96)
        // The marker at the top right, blue below it and left of it: neither the yellow frame before nor the
        // green one after.
        Self.expectColour(poster, x: 48, y: 10, (255, 255, 255), file)
        Self.expectColour(poster, x: 10, y: 80, (0, 0, 255), file)
        Self.expectColour(poster, x: 10, y: 10, (0, 0, 255), file)
    }

    /// The rendition at the clip's own size against the frame `ffmpeg -ss 1 -i FILE -frames:v 1` shows
    /// (turned by the display matrix, converted by libswscale as we convert): every sample within 2 levels
    /// (measured: identical).
    @Test(
        .enabled(
            if: Self.ffmpeg != nil, "the ffmpeg command is absent (Debian's ffmpeg; run scripts/setup.sh)"),
        arguments: portraits.map(\.file) + ["short-h264.mp4", "one-keyframe-h264.mp4"])
    func posterMatchesTheFrameFFmpegShows(file: String) throws {
        let portrait = file.hasPrefix("portrait")
        let (metadata, poster) = try Self.poster(of: file, width: portrait ? 64 : 96)
        let reference = try Self.ffmpegFrame(file, at: portrait ? "1" : "0")
        #expect(
            reference.count == poster.pixels.count, "\(file): \(metadata.width ?? 0)×\(metadata.height ?? 0)")
        let worst = zip(reference, poster.pixels).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 2, "\(file): a sample differs by \(worst)")
    }

    /// An HDR clip (10-bit HEVC, BT.2020, HLG or PQ) is tone-mapped as an HDR HEIF is: grey at HDR reference
    /// white becomes SDR white, where read as SDR it would be grey (191 of 255 for HLG, 148 for PQ).
    @Test(arguments: [("hlg-hevc.mov", "hlg"), ("pq-hevc.mov", "pq")])
    func hdrPosterIsToneMapped(file: String, transfer: String) throws {
        let (metadata, poster) = try Self.poster(of: file, width: 64)
        #expect(metadata.toneMapped == transfer)
        Self.expectColour(poster, x: 32, y: 24, (255, 255, 255), file)
    }

    /// A container holding sound alone (a voice recording in WebM, an AAC track in MP4) is reported as any
    /// non-picture is, by its type, size and checksum: not an error, and nothing decoded.
    @Test(arguments: [("audio-only.mp4", MediaType.mp4), ("audio-only.webm", .webm)])
    func soundAloneIsReportedNotDecoded(file: String, type: MediaType) throws {
        let look = try LookPipeline(settings: #"{"width":64,"format":"png"}"#)
        var timings = StageTimings()
        let metadata = try look.pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "look", path: file), bucket: look.bucket),
            bytes: try Samples.bytes("videos/\(file)"), timings: &timings)
        #expect(metadata.contentType == type.mimeType)
        #expect(metadata.width == nil && metadata.codec == nil && metadata.renditions == nil)
    }

    /// A clip shorter than a second shows its first frame (cyan; the rest is orange).
    @Test func shortClipShowsItsFirstFrame() throws {
        let (metadata, poster) = try Self.poster(of: "short-h264.mp4", width: 96)
        #expect(metadata.width == 96 && metadata.height == 64)
        #expect(abs((metadata.duration ?? 0) - 0.5) < 0.05)
        Self.expectColour(poster, x: 48, y: 32, (0, 255, 255), "short-h264.mp4")
    }

    /// A clip whose only keyframe is its first shows that frame (red) rather than decoding up to 1 s.
    @Test func clipWithoutAKeyframeAfterOneSecondShowsItsFirstFrame() throws {
        let (_, poster) = try Self.poster(of: "one-keyframe-h264.mp4", width: 96)
        Self.expectColour(poster, x: 48, y: 32, (255, 0, 0), "one-keyframe-h264.mp4")
    }

    /// The display matrix's turn (degrees anticlockwise, as FFmpeg reads it) as the EXIF orientation that
    /// shows the same: a phone held upright records a quarter turn clockwise (−90°, orientation 6).
    @Test func displayMatrixTurnsBecomeOrientations() {
        let turns: [(Double, Bool, Int)] = [
            (0, false, 1), (-90, false, 6), (180, false, 3), (-180, false, 3), (90, false, 8),
            (-89.6, false, 6), (0, true, 2), (-90, true, 7), (180, true, 4), (90, true, 5),
            (.nan, false, 1),
        ]
        for (rotation, mirrored, orientation) in turns {
            #expect(
                VideoStream.orientation(rotation: rotation, mirrored: mirrored) == orientation,
                "\(rotation)° \(mirrored ? "mirrored" : "")")
        }
    }

    // MARK: - Helpers

    struct Picture {
        var width: Int
        var height: Int
        var pixels: [UInt8]
    }

    /// The clip's metadata, and its poster as a PNG rendition `width` wide, read back.
    static func poster(of file: String, width: Int = 64) throws -> (CompletionMetadata, Picture) {
        let look = try LookPipeline(settings: #"{"width":\#(width),"format":"png"}"#)
        var timings = StageTimings()
        let metadata = try look.pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "look", path: file), bucket: look.bucket),
            bytes: try Samples.bytes("videos/\(file)"), timings: &timings)
        let key = try #require(metadata.renditions?["look"]?.key)
        let image = try VipsImage.load(.png, bytes: try #require(look.store.existing(key)))
        return (metadata, Picture(width: image.width, height: image.height, pixels: try image.pixelBytes()))
    }

    static func expectColour(
        _ picture: Picture, x: Int, y: Int, _ expected: (Int, Int, Int), _ file: String
    ) {
        let at = (y * picture.width + x) * 3
        let actual = (Int(picture.pixels[at]), Int(picture.pixels[at + 1]), Int(picture.pixels[at + 2]))
        let close =
            abs(actual.0 - expected.0) <= 12 && abs(actual.1 - expected.1) <= 12
            && abs(actual.2 - expected.2) <= 12
        #expect(close, "\(file) at \(x), \(y): \(actual), expected \(expected)")
    }

    static let ffmpeg: String? = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The frame FFmpeg's command line shows at `seconds` (turned as the display matrix says), as RGB.
    static func ffmpegFrame(_ file: String, at seconds: String) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-frame-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ffmpeg))
        process.arguments = [
            "-hide_banner", "-loglevel", "error", "-ss", seconds, "-i",
            Samples.root.appendingPathComponent("videos/\(file)").path, "-frames:v", "1", "-f", "rawvideo",
            "-pix_fmt", "rgb24", output.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "ffmpeg failed on \(file)")
        return [UInt8](try Data(contentsOf: output))
    }
}
