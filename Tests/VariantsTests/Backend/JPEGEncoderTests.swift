import Testing

@testable import Variants

/// JPEG renditions are encoded with libjpeg-turbo directly. They are the files libvips 8.16.1's JPEG saver
/// wrote from the same pixels, byte for byte: these hashes are of its files (libjpeg-turbo 2.1.5).
@Suite struct JPEGEncoderTests {
    init() throws {
        try Vips.start()
    }

    @Test(arguments: [
        (
            bands: 3, quality: 82, progressive: false, optimized: false,
            hash: "e6b0053b03834266e2477ecd5a0866ff25df23e8913fb4d802805944b9205fd6"
        ),
        (
            bands: 3, quality: 90, progressive: false, optimized: false,
            hash: "5620be4723b154f34a1bb19b7447b3c1b8fa636714ec84d416831288bf94155c"
        ),
        (
            bands: 3, quality: 75, progressive: true, optimized: false,
            hash: "ccaa892ed6e8fb2235c8644f4e363660b4f62ba4d2c558edc83934148e7c1741"
        ),
        (
            bands: 3, quality: 82, progressive: false, optimized: true,
            hash: "5975c0e2e4c98fba6227dbcbca11ae91b515aa6a7b36eae799f0afefddb1bf59"
        ),
        (
            bands: 1, quality: 82, progressive: false, optimized: false,
            hash: "ca4f4b6738bb30d89db670b05022dbf0a84cecf53df8cd575c67f8a089304480"
        ),
    ])
    func writesWhatLibvipsSaverWrote(
        _ setting: (bands: Int, quality: Int, progressive: Bool, optimized: Bool, hash: String)
    ) throws {
        let image = try NoisePicture.image(width: 53, height: 37, bands: setting.bands)
        let file = try JPEGEncoder.encode(
            image, quality: setting.quality, progressive: setting.progressive,
            optimizedCoding: setting.optimized)
        #expect(SHA256.hex(file) == setting.hash)
    }

    @Test func refusesAlpha() throws {
        let rgba = try NoisePicture.image(width: 8, height: 8, bands: 4)
        #expect(throws: BackendError.self) {
            try JPEGEncoder.encode(rgba, quality: 82, progressive: false, optimizedCoding: false)
        }
    }

    /// libjpeg's own failures come back as a typed error with its words, not as its default exit.
    @Test func reportsLibjpegFailure() throws {
        let tooWide = try NoisePicture.image(width: 65_536, height: 1, bands: 3)
        do {
            _ = try JPEGEncoder.encode(tooWide, quality: 82, progressive: false, optimizedCoding: false)
            Issue.record("a 65,536-pixel-wide JPEG was written")
        } catch {
            #expect(error.call == "jpeg_encode")
            #expect(error.message.contains("65500"), "\(error.message)")
        }
    }
}
