import Foundation
import Testing
import VariantdTestSupport

@testable import Variants

/// libvips' GIF loader composes every frame as Chromium does: the canvas starts transparent, and a frame
/// disposed to background leaves its area transparent, never painted with the background colour, whether or
/// not the GIF has a transparent colour. Every frame is compared with Chromium's, pixel by pixel: the alpha
/// of every pixel, and the colour of every pixel opaque in both.
@Suite struct VipsGIFFramesTests {
    init() throws {
        try Vips.start()
    }

    /// GIFs without a transparent colour, on a 12×12 canvas whose background colour is white: where the
    /// canvas shows, a browser leaves it transparent.
    enum Fixture: CaseIterable, CustomTestStringConvertible {
        /// A red canvas, a green square in it disposed to background, then a blue square elsewhere.
        case disposedToBackground
        /// A red square smaller than the canvas, then a blue one overlapping its corner.
        case firstFrameSmallerThanTheCanvas
        /// A red canvas disposed to previous, that is to the empty canvas, then a green square.
        case firstFrameDisposedToPrevious
        /// What each frame clears, the next one covers: no pixel is ever transparent.
        case clearedAreasCoveredAgain

        var testDescription: String { "\(self)" }

        var gif: TestGIF {
            func frame(_ left: Int, _ top: Int, _ side: Int, _ colour: UInt8, _ disposal: TestGIF.Disposal)
                -> TestGIF.Frame
            {
                TestGIF.Frame(
                    left: left, top: top, width: side, height: side, colour: colour, disposal: disposal)
            }
            let frames =
                switch self {
                case .disposedToBackground:
                    [frame(0, 0, 12, 0, .keep), frame(4, 4, 4, 1, .background), frame(0, 0, 4, 2, .keep)]
                case .firstFrameSmallerThanTheCanvas:
                    [frame(2, 2, 8, 0, .keep), frame(0, 0, 4, 2, .keep)]
                case .firstFrameDisposedToPrevious:
                    [frame(0, 0, 12, 0, .previous), frame(4, 4, 4, 1, .keep)]
                case .clearedAreasCoveredAgain:
                    [
                        frame(0, 0, 12, 0, .background), frame(0, 0, 12, 1, .keep),
                        frame(4, 4, 4, 2, .background),
                        frame(2, 2, 8, 0, .keep),
                    ]
                }
            return TestGIF(
                width: 12, height: 12, palette: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]],
                background: 3, frames: frames)
        }

        /// Each frame's transparent pixels, counted from the frames' places.
        var transparentPixels: [Int] {
            switch self {
            case .disposedToBackground: [0, 0, 16]
            case .firstFrameSmallerThanTheCanvas: [144 - 64, 144 - 64 - 16 + 4]
            case .firstFrameDisposedToPrevious: [0, 144 - 16]
            case .clearedAreasCoveredAgain: [0, 0, 0, 0]
            }
        }
    }

    @Test(
        .enabled(if: Chromium.isAvailable, "chromium is absent (Debian's chromium; run scripts/setup.sh)"),
        arguments: Fixture.allCases)
    func framesAreComposedAsInChromium(fixture: Fixture) async throws {
        let comparison = try await FrameComparison(fixture.gif.bytes)
        #expect(comparison.differences.isEmpty, "\(comparison.differences)")
        #expect(comparison.transparentPixels == fixture.transparentPixels)
        // A GIF whose canvas never shows keeps three bands, as one with no transparency at all.
        #expect(comparison.bands == (fixture.transparentPixels.allSatisfy { $0 == 0 } ? 3 : 4))
    }

    /// The corpus GIFs that decode (still and animated), every frame the same as Chromium's.
    @Test(
        .enabled(if: Chromium.isAvailable, "chromium is absent (Debian's chromium; run scripts/setup.sh)"),
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"),
        arguments: [
            "conformance/gif/Crash_test.gif", "conformance/gif/cramps.gif",
            "conformance/gif/grey-plus-alpha.gif",
            "conformance/gif/hopper.gif", "conformance/gif/trans-x.gif",
            "formats/gif-animated/animated-loop-3.gif",
            "formats/gif-animated/chi.gif", "formats/gif-animated/cogs.gif",
            "formats/gif-animated/dispose-background.gif", "formats/gif-animated/dispose-previous.gif",
            "formats/gif-animated/rotating-squares.gif",
        ])
    func corpusFramesAreComposedAsInChromium(path: String) async throws {
        let bytes = [UInt8](try Data(contentsOf: ColourConversionTests.corpus.appendingPathComponent(path)))
        let comparison = try await FrameComparison(bytes)
        #expect(comparison.differences.isEmpty, "\(comparison.differences)")
    }
}

/// A GIF's frames as libvips decodes them (every frame, stacked, as the pipeline loads an animation) beside
/// Chromium's.
private struct FrameComparison {
    /// libvips' bands: 3, or 4 for a GIF with transparency.
    var bands: Int
    /// Chromium's transparent pixels, frame by frame.
    var transparentPixels: [Int]
    /// What differs, one line per frame that does: pixels whose alpha differs, opaque pixels whose colour does.
    var differences: [String] = []

    init(_ bytes: [UInt8]) async throws {
        let browser = try await BrowserFrames(decoding: bytes, type: "image/gif")
        let image = try VipsImage.load(.gif, bytes: bytes, allFrames: true)
        let header = image.header
        let pixels = try image.pixelBytes()
        bands = header.bands
        transparentPixels = browser.frames.map { frame in
            stride(from: 3, to: frame.count, by: 4).count { frame[$0] == 0 }
        }
        guard header.pages == browser.frames.count, header.width == browser.width,
            header.height == header.pages * browser.height
        else {
            differences.append(
                "libvips: \(header.pages) frames of \(header.width)×\(header.height / header.pages), Chromium: "
                    + "\(browser.frames.count) of \(browser.width)×\(browser.height)")
            return
        }
        let area = browser.width * browser.height
        for (index, shown) in browser.frames.enumerated() {
            var (alpha, colour) = (0, 0)
            for pixel in 0..<area {
                let decoded = (index * area + pixel) * bands
                let decodedAlpha = bands == 4 ? pixels[decoded + 3] : 255
                if decodedAlpha != shown[pixel * 4 + 3] {
                    alpha += 1
                } else if decodedAlpha > 0,
                    (0..<3).contains(where: { pixels[decoded + $0] != shown[pixel * 4 + $0] })
                {
                    colour += 1
                }
            }
            if alpha + colour > 0 {
                differences.append("frame \(index): alpha differs in \(alpha) pixels, colour in \(colour)")
            }
        }
    }
}
