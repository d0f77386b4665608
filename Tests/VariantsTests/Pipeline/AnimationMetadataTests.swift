import Foundation
import Testing

@testable import Variants

/// Animated GIF and WebP pictures report their frame count and total duration, read from the header: each frame
/// counted as it shows, a frame declared 10 ms or shorter as 100 ms (cogs.gif's first frame declares 0).
@Suite struct AnimationMetadataTests {
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"),
        arguments: [
            ("formats/gif-animated/animated-loop-3.gif", 10, 42_000),
            ("formats/gif-animated/chi.gif", 31, 3_100),
            ("formats/gif-animated/cogs.gif", 5, 300),
            ("formats/webp-animated/rotating-squares.webp", 9, 900),
            ("formats/webp-animated/Animation_Lossy.webp", 101, 3_030),
        ])
    func animatedPictureReportsFramesAndDuration(path: String, frames: Int, duration: Int) throws {
        let bytes = [UInt8](try Data(contentsOf: ColourConversionTests.corpus.appendingPathComponent(path)))
        var timings = StageTimings()
        let metadata = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "b", path: path), bucket: nil), bytes: bytes,
            timings: &timings)
        #expect(metadata.frames == frames)
        #expect(metadata.duration == Double(duration))
    }

    @Test func stillPictureReportsNeither() throws {
        var timings = StageTimings()
        for file in ["pictures/gradient.gif", "pictures/gradient.webp", "pictures/gradient.jpg"] {
            let metadata = try Pipeline().run(
                RenditionOrder(ObjectRequest(bucket: "b", path: file), bucket: nil),
                bytes: try Samples.bytes(file), timings: &timings)
            #expect(metadata.frames == nil && metadata.duration == nil, "\(file)")
        }
    }
}
