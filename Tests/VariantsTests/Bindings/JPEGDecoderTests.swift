import Foundation
import Testing

@testable import Variants

/// Grey and YCbCr JPEGs are decoded by libjpeg-turbo directly, where libvips' loader still decodes CMYK and
/// pictures too large to hold whole: the two must give the same pixels at the same size, and refuse the same
/// files, or a rendition would depend on which of them a picture's size chose.
@Suite struct JPEGDecoderTests {
    init() throws {
        try Vips.start()
    }

    /// Odd sides, so that every shrink leaves a fraction of a pixel (libvips drops it); 4:2:0 below Q 90 and
    /// 4:4:4 from it, baseline and progressive, RGB and grey.
    @Test(
        arguments: [
            (bands: 3, quality: 82, progressive: false), (bands: 3, quality: 95, progressive: false),
            (bands: 3, quality: 75, progressive: true), (bands: 1, quality: 82, progressive: false),
        ], [1, 2, 4, 8])
    func decodesTheLoadersPixels(_ setting: (bands: Int, quality: Int, progressive: Bool), shrink: Int) throws
    {
        let file = try JPEGEncoder.encode(
            NoisePicture.image(width: 203, height: 117, bands: setting.bands), quality: setting.quality,
            progressive: setting.progressive, optimizedCoding: false)
        try Self.expectSameOutcome(file, shrink: shrink, name: "\(setting)")
    }

    @Test(
        arguments: ["pictures/gradient.jpg", "pictures/orientation-6.jpg", "pictures/truncated.jpg"], [1, 2])
    func decodesSamplesAsTheLoader(path: String, shrink: Int) throws {
        try Self.expectSameOutcome(try Samples.bytes(path), shrink: shrink, name: path)
    }

    /// Data that ends before the picture does is refused by both, wherever it ends.
    @Test(arguments: [0.2, 0.6, 0.97])
    func refusesWhatEndsEarly(keptFraction: Double) throws {
        let file = try Self.noiseFile()
        let cut = Array(file.prefix(Int(Double(file.count) * keptFraction)))
        #expect(throws: BackendError.self) { try JPEGDecoder.decode(cut, shrink: 1) }
        try Self.expectSameOutcome(cut, shrink: 1, name: "cut at \(keptFraction)")
    }

    /// Damaged entropy-coded data makes libjpeg warn, not fail: both decoders go on, and to the same pixels.
    @Test(arguments: [0.3, 0.5, 0.8])
    func readsPastDamagedDataAsTheLoader(at fraction: Double) throws {
        var file = try Self.noiseFile()
        let start = Int(Double(file.count) * fraction)
        for index in start..<start + 16 where file[index] != 0xFF { file[index] ^= 0x5A }
        try Self.expectSameOutcome(file, shrink: 1, name: "damaged at \(fraction)")
    }

    /// CMYK is libvips' loader's (it knows which files store their ink inverted).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"))
    func refusesCMYK() throws {
        let cmyk = [UInt8](
            try Data(
                contentsOf: ColourConversionTests.corpus.appendingPathComponent(
                    "formats/jpeg-cmyk/Channel_digital_image_CMYK_color.jpg")))
        #expect(throws: BackendError.self) { try JPEGDecoder.decode(cmyk, shrink: 1) }
    }

    /// A decode made outside libvips takes what a rendition keeps of the header libvips read: here the JFIF
    /// resolution, which a PNG rendition writes as its `pHYs`.
    @Test func decodedPictureKeepsTheResolution() throws {
        var file = try Self.noiseFile()
        // A JFIF segment saying 300 dots per inch, after the start of image.
        let jfif: [UInt8] = [
            0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x01, 0x01, 0x2C, 0x01, 0x2C,
            0x00,
            0x00,
        ]
        file.insert(contentsOf: jfif, at: 2)
        let picture = try OpenedPicture(bytes: file, type: .jpeg, limits: Limits())
        let png = try picture.decode { ($0, $1) }.image.encodedAsPNG(effort: 1)
        let chunk = try #require(
            png.indices.dropLast(12).first { png[$0..<$0 + 4].elementsEqual("pHYs".utf8) })
        let pixelsPerMetre = png[chunk + 4..<chunk + 8].reduce(0) { $0 << 8 | Int($1) }
        #expect(pixelsPerMetre == 11_811)
    }

    @Test func largeDecodesAreLeftToTheStreamingLoader() {
        #expect(JPEGDecoder.decodesWhole(width: 4_032, height: 3_024, bands: 3, shrink: 1))
        #expect(!JPEGDecoder.decodesWhole(width: 6_000, height: 4_000, bands: 3, shrink: 1))
        #expect(JPEGDecoder.decodesWhole(width: 6_000, height: 4_000, bands: 3, shrink: 2))
        #expect(!JPEGDecoder.decodesWhole(width: 16, height: 16, bands: 4, shrink: 1))
    }

    /// Every JPEG of the corpus that this decoder takes, at the shrinks W1's renditions use.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"))
    func decodesTheCorpusAsTheLoader() throws {
        let files =
            FileManager.default.enumerator(atPath: ColourConversionTests.corpus.path)?
            .compactMap { $0 as? String }
            .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted() ?? []
        #expect(files.count > 40)
        for path in files {
            let bytes = [UInt8](
                try Data(contentsOf: ColourConversionTests.corpus.appendingPathComponent(path)))
            guard let header = try? VipsImage.load(.jpeg, bytes: bytes).header, !header.isCMYK else {
                continue
            }
            for shrink in [2, 8]
            where JPEGDecoder.decodesWhole(
                width: header.width, height: header.height, bands: header.bands, shrink: shrink)
            {
                try Self.expectSameOutcome(bytes, shrink: shrink, name: path)
            }
        }
    }

    // MARK: - Helpers

    private static func noiseFile() throws -> [UInt8] {
        try JPEGEncoder.encode(
            NoisePicture.image(width: 203, height: 117, bands: 3), quality: 82, progressive: false,
            optimizedCoding: false)
    }

    /// Both decode, to the same size and pixels, or both fail.
    private static func expectSameOutcome(_ bytes: [UInt8], shrink: Int, name: String) throws {
        let ours = Result { try JPEGDecoder.decode(bytes, shrink: shrink).pixelBytes() }
        let theirs = Result { () throws(BackendError) in
            let image = try VipsImage.load(.jpeg, bytes: bytes, shrink: shrink).materialized()
            return (image, try image.pixelBytes())
        }
        switch (ours, theirs) {
        case (.success(let pixels), .success(let (image, expected))):
            let decoded = try JPEGDecoder.decode(bytes, shrink: shrink)
            #expect(
                decoded.width == image.width && decoded.height == image.height,
                "\(name) at 1/\(shrink): \(decoded.width)×\(decoded.height), libvips \(image.width)×\(image.height)"
            )
            #expect(SHA256.hex(pixels) == SHA256.hex(expected), "\(name) at 1/\(shrink)")
        case (.failure, .failure):
            break
        case (.success, .failure(let error)):
            Issue.record("\(name) at 1/\(shrink): decoded here, refused by libvips (\(error.message))")
        case (.failure(let error), .success):
            Issue.record("\(name) at 1/\(shrink): refused here (\(error)), decoded by libvips")
        }
    }
}
