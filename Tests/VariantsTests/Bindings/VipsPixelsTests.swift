import Testing

@testable import Variants

/// Pixels leave libvips two ways: read in place from an image held in memory, or computed and copied out.
/// Both must give the same bytes, and so the same encoded renditions.
@Suite struct VipsPixelsTests {
    init() throws {
        try Vips.start()
    }

    /// A reduction of the sample photo, still computed on demand (a sequential load: it can be read once).
    private func pending() throws -> VipsImage {
        try VipsImage.load(.jpeg, bytes: try Samples.bytes("pictures/gradient.jpg")).resized(
            toWidth: 50, height: 30)
    }

    @Test func heldAndComputedPixelsAreTheSame() throws {
        let held = try pending().materialized()
        let computed = try pending().pixelBytes()
        #expect(computed.count == 50 * 30 * 3)
        #expect(try held.pixelBytes() == computed)
        #expect(try held.withPixels { Array($0) } == computed)
        #expect(try pending().withPixels { Array($0) } == computed)
    }

    @Test func encodersReadHeldPixelsLikeCopiedOnes() throws {
        let held = try pending().materialized()
        #expect(
            try WebPEncoder.encode(held, quality: 80, effort: 4, threads: 1)
                == WebPEncoder.encode(try pending(), quality: 80, effort: 4, threads: 1))
        #expect(
            try HeifEncoder.avif(held, quality: 60, speed: 9, threads: 1)
                == HeifEncoder.avif(try pending(), quality: 60, speed: 9, threads: 1))
        #expect(
            try JPEGEncoder.encode(held, quality: 82, progressive: false, optimizedCoding: false)
                == JPEGEncoder.encode(try pending(), quality: 82, progressive: false, optimizedCoding: false))
    }
}
