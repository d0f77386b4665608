import Testing

@testable import Variants

/// Setup patches libvips' horizontal Lanczos reduce (scripts/patches) to make several output pixels at once.
/// The patch changes the speed, not the arithmetic: these reductions of a noise picture, whole and through
/// windows that start at odd columns, hash to what libvips 8.16.1 without the patch made of them.
@Suite struct VipsResizeTests {
    init() throws {
        try Vips.start()
    }

    @Test func horizontalReductionsMatchUnpatchedLibvips() throws {
        let hash = SHA256.Incremental()
        for width in [247, 124, 85, 61, 5, 2, 1] {
            let whole = try NoisePicture.image(width: 331, height: 7, bands: 3).resized(
                toWidth: width, height: 7)
            #expect(whole.header.width == width && whole.header.height == 7)
            hash.update(try whole.pixelBytes())
            for (left, span) in [(1, 1), (37, 3), (37, 4), (37, 5), (101, 9), (5, 200)]
            where left + span <= width {
                let window = try NoisePicture.image(width: 331, height: 7, bands: 3)
                    .resized(toWidth: width, height: 7)
                    .cropped(left: left, top: 2, width: span, height: 3)
                hash.update(try window.pixelBytes())
            }
        }
        #expect(hash.finish() == "036f5abbec5e89295bc748ecddca0cc6b7944d3e2ee1d6723e3ef8754fd8841f")
    }
}
