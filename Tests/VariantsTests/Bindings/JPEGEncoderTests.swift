import Foundation
import Testing

@testable import Variants

/// JPEG renditions are encoded with jpegli: plain 8-bit JPEG, baseline or progressive as asked, with no marker
/// but the picture's, that libjpeg-turbo reads back; smaller than libjpeg-turbo's file at the declared quality,
/// and smaller again progressive.
@Suite struct JPEGEncoderTests {
    init() throws {
        try Vips.start()
    }

    /// 4:2:0 below Q 90 and 4:4:4 from it, baseline (one scan) and progressive (DC, the two lowest AC
    /// coefficients, the rest: each component on its own but both chroma DCs together), RGB and grey.
    @Test(arguments: [
        (bands: 3, quality: 82, progressive: false, sampling: 0x22, scans: 1),
        (bands: 3, quality: 90, progressive: false, sampling: 0x11, scans: 1),
        (bands: 3, quality: 75, progressive: true, sampling: 0x22, scans: 8),
        (bands: 3, quality: 95, progressive: true, sampling: 0x11, scans: 8),
        (bands: 1, quality: 82, progressive: false, sampling: 0x11, scans: 1),
        (bands: 1, quality: 82, progressive: true, sampling: 0x11, scans: 3),
    ])
    func writesPlainJPEGAsAsked(
        _ setting: (bands: Int, quality: Int, progressive: Bool, sampling: Int, scans: Int)
    ) throws {
        let image = try NoisePicture.image(width: 53, height: 37, bands: setting.bands)
        let file = try JPEGEncoder.encode(
            image, quality: setting.quality, progressive: setting.progressive,
            optimizedCoding: Renderer.jpegOptimizedCoding)
        let structure = JPEGStructure(file)
        #expect(!structure.truncated)
        #expect(structure.frameMarker == (setting.progressive ? 0xC2 : 0xC0))
        #expect(structure.precision == 8)
        #expect(structure.metadataBytes == 0)
        #expect(Self.lumaSampling(file) == setting.sampling)
        #expect(Self.scanCount(file) == setting.scans)
        let decoded = try JPEGDecoder.decode(file, shrink: 1).header
        #expect(decoded.width == 53 && decoded.height == 37 && decoded.bands == setting.bands)
        #expect(
            try file
                == JPEGEncoder.encode(
                    image, quality: setting.quality, progressive: setting.progressive,
                    optimizedCoding: Renderer.jpegOptimizedCoding))
    }

    /// A corpus photo at a rendition's size: libvips' own saver (libjpeg-turbo) at the same quality writes a
    /// larger file, and libjpeg-turbo decodes ours to pixels no further from the photo's than its own; the
    /// progressive file is smaller still, with the same pixels.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"))
    func smallerThanLibjpegTurboAtTheSameQuality() throws {
        let photo = try JPEGDecoder.decode(
            Array(
                try Data(
                    contentsOf: ColourConversionTests.corpus.appendingPathComponent(
                        "photos/jpeg/Nikon_D90.jpg"))),
            shrink: 2)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jpeg-encoder-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lossless = folder.appendingPathComponent("photo.png")
        let turboFile = folder.appendingPathComponent("turbo.jpg")
        try Data(try photo.encodedAsPNG(effort: 1)).write(to: lossless)
        try ColourConversionTests.vips(["jpegsave", lossless.path, turboFile.path, "--Q", "82", "--strip"])
        let turbo = Array(try Data(contentsOf: turboFile))
        let ours = try JPEGEncoder.encode(
            photo, quality: 82, progressive: false, optimizedCoding: Renderer.jpegOptimizedCoding)
        #expect(
            Double(ours.count) < 0.9 * Double(turbo.count),
            "\(ours.count) bytes, libjpeg-turbo \(turbo.count)")
        let progressive = try JPEGEncoder.encode(
            photo, quality: 82, progressive: true, optimizedCoding: Renderer.jpegOptimizedCoding)
        #expect(
            Double(progressive.count) < 0.98 * Double(ours.count),
            "progressive \(progressive.count) bytes, baseline \(ours.count)")
        #expect(
            try JPEGDecoder.decode(progressive, shrink: 1).pixelBytes()
                == JPEGDecoder.decode(ours, shrink: 1).pixelBytes(),
            "the scans reorder, they do not requantise")
        let source = try photo.pixelBytes()
        let oursError = Self.meanError(try JPEGDecoder.decode(ours, shrink: 1).pixelBytes(), source)
        let turboError = Self.meanError(try JPEGDecoder.decode(turbo, shrink: 1).pixelBytes(), source)
        #expect(oursError <= turboError * 1.1, "mean error \(oursError), libjpeg-turbo's \(turboError)")
    }

    /// jpegli scales its tables for the chroma resolution they quantise: chroma at half resolution is
    /// quantised more finely than luma (each of its coefficients spans four times the area), whole chroma
    /// more coarsely.
    @Test(arguments: [(quality: 89, chromaFiner: true), (quality: 90, chromaFiner: false)])
    func chromaTablesFollowTheSampling(_ setting: (quality: Int, chromaFiner: Bool)) throws {
        let image = try NoisePicture.image(width: 64, height: 64, bands: 3)
        let file = try JPEGEncoder.encode(
            image, quality: setting.quality, progressive: false, optimizedCoding: Renderer.jpegOptimizedCoding
        )
        let tables = Self.quantisationTables(file)
        let (luma, chroma) = (try #require(tables[0]), try #require(tables[1]))
        #expect(
            (chroma.reduce(0, +) < luma.reduce(0, +)) == setting.chromaFiner, "luma \(luma), chroma \(chroma)"
        )
    }

    @Test func refusesAlpha() throws {
        let rgba = try NoisePicture.image(width: 8, height: 8, bands: 4)
        #expect(throws: BackendError.self) {
            try JPEGEncoder.encode(rgba, quality: 82, progressive: false, optimizedCoding: false)
        }
    }

    /// jpegli's own failures come back as a typed error with its words, not as its default exit.
    @Test func reportsEncoderFailure() throws {
        let tooWide = try NoisePicture.image(width: 65_536, height: 1, bands: 3)
        do {
            _ = try JPEGEncoder.encode(tooWide, quality: 82, progressive: false, optimizedCoding: false)
            Issue.record("a 65,536-pixel-wide JPEG was written")
        } catch {
            #expect(error.call == "jpeg_encode")
            #expect(error.message.contains("too big"), "\(error.message)")
        }
    }

    /// The first component's sampling factors in the frame header (0x22: 2×2, chroma at half resolution).
    private static func lumaSampling(_ file: [UInt8]) -> Int? {
        let frame = file.indices.dropLast().first { file[$0] == 0xFF && [0xC0, 0xC2].contains(file[$0 + 1]) }
        return frame.flatMap { $0 + 11 < file.count ? Int(file[$0 + 11]) : nil }
    }

    /// The 8-bit quantisation tables of the file's DQT segments, by table number.
    private static func quantisationTables(_ file: [UInt8]) -> [Int: [Int]] {
        var tables: [Int: [Int]] = [:]
        var offset = 2
        while offset + 4 <= file.count, file[offset] == 0xFF, file[offset + 1] != 0xDA {
            let end = offset + 2 + (Int(file[offset + 2]) << 8 | Int(file[offset + 3]))
            if file[offset + 1] == 0xDB {
                var table = offset + 4
                while table + 65 <= min(end, file.count), file[table] >> 4 == 0 {
                    tables[Int(file[table] & 0x0F)] = file[table + 1...table + 64].map(Int.init)
                    table += 65
                }
            }
            offset = end
        }
        return tables
    }

    /// Start-of-scan markers: entropy-coded data stuffs every 0xFF it holds with a 0x00.
    private static func scanCount(_ file: [UInt8]) -> Int {
        zip(file, file.dropFirst()).count { $0 == 0xFF && $1 == 0xDA }
    }

    /// The mean absolute difference of two equally long runs of samples.
    private static func meanError(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(a.count, 1))
    }
}
