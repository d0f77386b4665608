import Testing

@testable import Variants

/// What the renderer makes of a plan, read back from the rendition written.
@Suite struct RendererTests {
    /// An animated `cover` at `entropy` or `attention` cuts one window from every frame: the first frame's,
    /// as a still of the picture shows. Here a striped block crosses a grey ramp from left to right; cut
    /// frame by frame, the window followed the block and the rendition jumped about.
    @Test(arguments: ["entropy", "attention"])
    func smartCropKeepsOneWindowForEveryFrame(position: String) throws {
        let look = try LookPipeline(
            settings: #"{"width":40,"height":60,"fit":"cover","position":"\#(position)","format":"webp"}"#)
        let (width, height) = (120, 60)
        let blockStarts = [0, 50, 100]
        let frames = blockStarts.enumerated().map { frame, start in
            (0..<width * height).flatMap { index -> [UInt8] in
                let x = index % width
                let ground = UInt8(40 + x + 3 * frame)
                guard (start..<start + 20).contains(x) else { return [ground, ground, ground] }
                return x % 4 < 2 ? [255, 0, 0] : [255, 255, 255]
            }
        }
        let source = try WebPEncoder.encodeAnimation(
            frames: frames, width: width, height: height, bands: 3, delays: [200, 200, 200], loop: 0,
            quality: 100, effort: 4, threads: 1)

        let sourceFrames = try Self.frames(of: source)
        let renditionFrames = try Self.frames(of: try look.rendition(of: source, path: "moving.webp"))
        try #require(renditionFrames.count == sourceFrames.count)
        let windows = zip(sourceFrames, renditionFrames).map { whole, cut in
            (0...whole.width - cut.width).min { left, right in
                Self.distance(cut, from: whole, left: left) < Self.distance(cut, from: whole, left: right)
            } ?? -1
        }
        #expect(Set(windows).count == 1, "the window moved from frame to frame: left edges \(windows)")
    }

    /// One frame's pixels, `bands` interleaved.
    private typealias Frame = (pixels: [UInt8], width: Int, height: Int, bands: Int)

    /// Each frame of an animated WebP.
    private static func frames(of bytes: [UInt8]) throws -> [Frame] {
        let strip = try VipsImage.load(.webp, bytes: bytes, allFrames: true).materialized()
        let header = strip.header
        let frameHeight = strip.animation(frames: header.pages).frameHeight
        try #require(frameHeight > 0)
        let pixels = try strip.pixelBytes()
        let frameBytes = header.width * frameHeight * header.bands
        return stride(from: 0, to: pixels.count, by: frameBytes).map {
            (Array(pixels[$0..<$0 + frameBytes]), header.width, frameHeight, header.bands)
        }
    }

    /// Mean absolute difference of `cut`'s colours from the same-sized window of `whole` at column `left`.
    private static func distance(_ cut: Frame, from whole: Frame, left: Int) -> Double {
        var total = 0
        for y in 0..<cut.height {
            for x in 0..<cut.width {
                for band in 0..<3 {
                    let a = Int(cut.pixels[(y * cut.width + x) * cut.bands + band])
                    let b = Int(whole.pixels[(y * whole.width + left + x) * whole.bands + band])
                    total += abs(a - b)
                }
            }
        }
        return Double(total) / Double(cut.width * cut.height * 3)
    }
}
