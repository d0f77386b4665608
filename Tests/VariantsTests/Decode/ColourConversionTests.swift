import Foundation
import Testing

@testable import Variants

/// Every rendition is sRGB and looks like its source: a rendition is compared with lcms' own conversion of
/// the source's pixels through their embedded profile, resized to the rendition's size, after a Gaussian blur
/// of σ 2 on both (to take resampling and compression noise out): mean difference ≤ 1.5 and maximum ≤ 12 of
/// 255 in every channel.
@Suite struct ColourConversionTests {
    private let store: RenditionFolder
    private let pipeline: Pipeline
    private let bucket: BucketDeclaration

    init() throws {
        let look = try LookPipeline(side: 256)
        (store, pipeline, bucket) = (look.store, look.pipeline, look.bucket)
    }

    static let corpus = Samples.root.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpus")

    /// Corpus pictures that embed a colour profile (found by listing the corpus at test time would hide a
    /// file that lost its profile; these are the ones known to carry one): RGB matrix/TRC, a LUT-based XYB
    /// JPEG, a CMYK print profile, grey, 16-bit PNG, AVIF and HEIF `prof`.
    static let profiled = [
        "conformance/jpeg/320x240.jpg", "conformance/jpeg/Landscape_9.jpg",
        "conformance/jpeg/red-at-12-oclock-with-color-profile.jpg", "conformance/jpeg/sample.jpg",
        "conformance/png/vgl_5674_0098.png", "formats/grayscale/concert.jpg",
        "formats/jpeg-cmyk/Channel_digital_image_CMYK_color.jpg", "formats/jpeg-progressive/Issue_600_2.jpg",
        "formats/jpeg-special/sample-xyb.jpg", "formats/png-16bit/monkey16.png",
        "orientation/jpeg/Landscape_6.jpg",
        "orientation/png/xmp_tags_orientation.png", "conformance/avif/icc_profile.avif",
        "conformance/avif/red-at-12-oclock-with-color-profile-8bpc.avif",
    ]

    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: corpus.path), "../shared/corpus is absent"),
        arguments: profiled)
    func corpusPictureMatchesLcms(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(path)))
        try expectMatchesLcms(bytes, name: path)
    }

    /// The same sRGB picture converted into wide-gamut, print and grey spaces with the profile embedded.
    @Test(arguments: ["display-p3", "adobe-rgb", "prophoto", "grey", "cmyk"])
    func convertedSampleMatchesLcms(space: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile: String
        switch space {
        case "display-p3":
            profile = try write(
                LcmsReference.rgbProfile(
                    white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
                    gamma: nil), in: folder)
        case "adobe-rgb":
            profile = try write(
                LcmsReference.rgbProfile(
                    white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
                    gamma: 563 / 256), in: folder)
        case "prophoto":
            profile = try write(
                LcmsReference.rgbProfile(
                    white: (0.3457, 0.3585), red: (0.7347, 0.2653), green: (0.1596, 0.8404),
                    blue: (0.0366, 0.0001),
                    gamma: 1.8), in: folder)
        case "grey":
            profile = try write(LcmsReference.greyProfile(gamma: 2.2), in: folder)
        default:
            profile = "cmyk"  // libvips' built-in CMYK print profile
        }
        let output = folder.appendingPathComponent(space == "cmyk" ? "converted.jpg[Q=95]" : "converted.png")
        try Self.vips([
            "icc_transform", Samples.root.appendingPathComponent("pictures/gradient.jpg").path, output.path,
            profile,
            "--input-profile", "srgb", "--intent", "relative",
        ])
        let bytes = [UInt8](
            try Data(
                contentsOf: folder.appendingPathComponent(space == "cmyk" ? "converted.jpg" : "converted.png")
            ))
        let embedded = try #require(
            try VipsImage.load(space == "cmyk" ? .jpeg : .png, bytes: bytes).iccProfile)
        #expect(ICCProfile(embedded)?.isSRGB == false)
        try expectMatchesLcms(bytes, name: space)
    }

    /// A PNG without a profile whose `gAMA` and `cHRM` chunks describe a gamma-1.8 Adobe RGB picture.
    @Test func pngGammaAndChromaticitiesAreHonoured() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.png")
        try Self.vips(["copy", Samples.root.appendingPathComponent("pictures/gradient.jpg").path, plain.path])
        var bytes = [UInt8](try Data(contentsOf: plain))
        let chromaticities = [0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06]
        let chunks =
            Self.pngChunk("gAMA", Self.u32(55_556))
            + Self.pngChunk("cHRM", chromaticities.flatMap { Self.u32(Int(($0 * 100_000).rounded())) })
        bytes.insert(contentsOf: chunks, at: 33)  // after the signature and IHDR
        let profile = try LcmsReference.rgbProfile(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
            gamma: 100_000 / 55_556)
        try expectMatchesLcms(bytes, name: "gAMA+cHRM", profile: profile)
    }

    /// A grey PNG without a profile whose `gAMA` says gamma 1.8 is converted by it, as a colour one is: the
    /// PNG suite's one picture at three gammas then looks alike, as in browsers.
    @Test func greyPNGGammaIsHonoured() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("grey.png")
        try Self.vips([
            "colourspace", Samples.root.appendingPathComponent("pictures/gradient.jpg").path, plain.path,
            "b-w",
        ])
        var bytes = [UInt8](try Data(contentsOf: plain))
        // After the signature and IHDR.
        bytes.insert(contentsOf: Self.pngChunk("gAMA", Self.u32(55_556)), at: 33)
        try expectMatchesLcms(
            bytes, name: "grey gAMA", profile: try LcmsReference.greyProfile(gamma: 100_000 / 55_556))
    }

    /// An AVIF whose `nclx` box says Display P3 primaries, without an ICC profile.
    @Test func heifNCLXPrimariesAreConverted() throws {
        var bytes = try Samples.bytes("pictures/hopper.avif")
        let colr = try #require(
            bytes.indices.dropLast(12).first { bytes[$0..<$0 + 8].elementsEqual("colrnclx".utf8) })
        bytes.replaceSubrange(colr + 8..<colr + 10, with: [0, 12])  // colour_primaries 12: Display P3
        let profile = try LcmsReference.rgbProfile(
            white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
            gamma: nil)
        try expectMatchesLcms(bytes, name: "nclx P3", profile: profile)
        var timings = StageTimings()
        let untouched = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "h.avif"), bucket: bucket),
            bytes: try Samples.bytes("pictures/hopper.avif"), timings: &timings)
        let converted = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "p3.avif"), bucket: bucket), bytes: bytes,
            timings: &timings)
        #expect(
            untouched.renditions?["look"]?.checksumSha256 != converted.renditions?["look"]?.checksumSha256)
    }

    /// A profile lcms cannot parse is treated as absent: the picture still renders, and the metadata says so.
    @Test func unusableProfileIsIgnoredAndSaid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let profile = try write(
            LcmsReference.rgbProfile(
                white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
                gamma: 2.2),
            in: folder)
        let output = folder.appendingPathComponent("tagged.jpg")
        try Self.vips([
            "icc_transform", Samples.root.appendingPathComponent("pictures/gradient.jpg").path, output.path,
            profile,
            "--input-profile", "srgb",
        ])
        var bytes = [UInt8](try Data(contentsOf: output))
        let signature = try #require(
            bytes.indices.dropLast(4).first { bytes[$0..<$0 + 4].elementsEqual("acsp".utf8) })
        bytes.replaceSubrange(signature..<signature + 4, with: "xxxx".utf8)
        var timings = StageTimings()
        let metadata = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "broken.jpg"), bucket: bucket), bytes: bytes,
            timings: &timings)
        #expect(metadata.colourProfile == "ignored")
        #expect(metadata.renditions?["look"]?.width == 256)
        let clean = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "g.jpg"), bucket: bucket),
            bytes: try Samples.bytes("pictures/gradient.jpg"), timings: &timings)
        #expect(clean.colourProfile == nil)
    }

    /// A CMYK JPEG whose profile is not even ICC renders as if it had none: through libvips' print profile
    /// with the same intent, pixel for pixel.
    @Test func cmykWithUnusableProfileRendersAsWithout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("cmyk.jpg")
        try Self.vips([
            "icc_transform", Samples.root.appendingPathComponent("pictures/gradient.jpg").path, output.path,
            "cmyk", "--input-profile", "srgb",
        ])
        let tagged = [UInt8](try Data(contentsOf: output))
        var broken = tagged
        let signature = try #require(
            broken.indices.dropLast(4).first { broken[$0..<$0 + 4].elementsEqual("acsp".utf8) })
        broken.replaceSubrange(signature..<signature + 4, with: "xxxx".utf8)
        // The same file without its APP2 ICC segments.
        var bare = Array(tagged.prefix(2))
        var offset = 2
        while offset + 4 <= tagged.count, tagged[offset] == 0xFF, tagged[offset + 1] != 0xDA {
            let end = offset + 2 + (Int(tagged[offset + 2]) << 8 | Int(tagged[offset + 3]))
            if tagged[offset + 1] != 0xE2 { bare += tagged[offset..<end] }
            offset = end
        }
        bare += tagged[offset...]

        var timings = StageTimings()
        let ignored = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "broken.jpg"), bucket: bucket), bytes: broken,
            timings: &timings)
        let plain = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "bare.jpg"), bucket: bucket), bytes: bare,
            timings: &timings)
        #expect(ignored.colourProfile == "ignored")
        #expect(plain.colourProfile == nil)
        #expect(ignored.renditions?["look"]?.checksumSha256 == plain.renditions?["look"]?.checksumSha256)
    }

    /// A profile whose channels are not the picture's is not applied (libvips would quietly convert through a
    /// stand-in of its own: sRGB, grey or its print profile), and the metadata says so: the renditions are
    /// exactly those of the same picture without it. A WebP cannot store grey, so a grey profile on its RGB
    /// pixels is the common case.
    @Test(arguments: [
        "grey on RGB WebP", "Adobe RGB on grey JPEG", "CMYK on RGB JPEG", "Adobe RGB on CMYK JPEG",
    ])
    func aProfileForOtherPixelsIsIgnoredAndSaid(fixture: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-icc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gradient = Samples.root.appendingPathComponent("pictures/gradient.jpg").path
        let adobe = try write(
            LcmsReference.rgbProfile(
                white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06),
                gamma: 563 / 256), in: folder)
        let (source, profile, format): (String, String, String)
        switch fixture {
        case "grey on RGB WebP":
            (source, profile, format) = (
                gradient, try write(LcmsReference.greyProfile(gamma: 2.2), in: folder), "webp"
            )
        case "Adobe RGB on grey JPEG":
            source = folder.appendingPathComponent("grey.png").path
            try Self.vips(["colourspace", gradient, source, "b-w"])
            (profile, format) = (adobe, "jpg")
        case "CMYK on RGB JPEG":
            (source, profile, format) = (gradient, "cmyk", "jpg")  // libvips' built-in print profile
        default:
            source = folder.appendingPathComponent("cmyk.jpg").path
            try Self.vips(["icc_transform", gradient, source, "cmyk", "--input-profile", "srgb"])
            (profile, format) = (adobe, "jpg")
        }
        // The same pixels saved twice, once tagged with the profile and once without any.
        let lossless = format == "webp" ? "lossless," : ""
        let tagged = folder.appendingPathComponent("tagged.\(format)").path
        let bare = folder.appendingPathComponent("bare.\(format)").path
        try Self.vips(["copy", source, "\(tagged)[\(lossless)profile=\(profile)]"])
        try Self.vips(["copy", source, "\(bare)[\(lossless)strip]"])
        let taggedBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tagged)))
        try #require(
            try VipsImage.load(format == "webp" ? .webp : .jpeg, bytes: taggedBytes).iccProfile != nil)

        var timings = StageTimings()
        let ignored = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "tagged.\(format)"), bucket: bucket),
            bytes: taggedBytes, timings: &timings)
        let plain = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: "bare.\(format)"), bucket: bucket),
            bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: bare))), timings: &timings)
        #expect(ignored.colourProfile == "ignored")
        #expect(plain.colourProfile == nil)
        let look = try #require(ignored.renditions?["look"])
        #expect(look.checksumSha256 == plain.renditions?["look"]?.checksumSha256)
    }

    @Test func sRGBProfilesAreRecognisedAndOthersAreNot() throws {
        let srgb = try LcmsReference.rgbProfile(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: nil)
        let gamma22 = try LcmsReference.rgbProfile(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), gamma: 2.2)
        #expect(ICCProfile(srgb)?.isSRGB == true)
        #expect(ICCProfile(gamma22)?.isSRGB == false)
        #expect(ICCProfile(try LcmsReference.greyProfile(gamma: 2.2))?.isSRGB == false)
        #expect(ICCProfile(Array(srgb.prefix(100))) == nil)
    }

    // MARK: - Helpers

    /// `profile` stands in for a colour description that is not an ICC profile (PNG `gAMA`, HEIF `nclx`).
    private func expectMatchesLcms(_ bytes: [UInt8], name: String, profile described: [UInt8]? = nil) throws {
        var timings = StageTimings()
        let metadata = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "c", path: name), bucket: bucket), bytes: bytes,
            timings: &timings)
        #expect(metadata.colourProfile == nil)
        let rendition = try #require(metadata.renditions?["look"])
        let rendered = try VipsImage.load(.png, bytes: try #require(store.existing(rendition.key)))

        let source = try Self.devicePixels(bytes)
        let profile = try #require(described ?? source.iccProfile, "\(name) carries no profile")
        let header = source.header
        let srgb = try LcmsReference.toSRGB(
            try source.pixelBytes(), bands: header.bands, bytesPerSample: header.bitsPerSample / 8,
            profile: profile)
        let reference = try PixelImage.make(srgb, width: source.width, height: source.height, bands: 3)
            .resized(toWidth: rendered.width, height: rendered.height)

        // Alpha (opaque in these pictures) is left out: lcms carries it through untouched.
        let rgba = try rendered.blurred(sigma: 2).pixelBytes()
        let left = rendered.hasAlpha ? rgba.indices.filter { $0 % 4 != 3 }.map { rgba[$0] } : rgba
        let right = try reference.blurred(sigma: 2).pixelBytes()
        try #require(left.count == right.count, "\(name): the rendition is not 8-bit RGB")
        for channel in 0..<3 {
            let differences = stride(from: channel, to: left.count, by: 3).map {
                abs(Int(left[$0]) - Int(right[$0]))
            }
            let mean = Double(differences.reduce(0, +)) / Double(differences.count)
            let worst = differences.max() ?? 0
            #expect(mean <= 1.5 && worst <= 12, "\(name) channel \(channel): mean \(mean), max \(worst)")
        }
    }

    /// The picture's pixels as coded, oriented, without any colour conversion.
    private static func devicePixels(_ bytes: [UInt8]) throws -> VipsImage {
        let type = Sniffer.sniff(bytes.prefix(Sniffer.prefixLength)) ?? .jpeg
        if type.facts.decoder == .heif {
            let limits = HeifContainer.Limits(
                maxPixels: 1 << 28, maxMemoryBlock: 1 << 30, maxItems: 1000, maxTiles: 1000, threads: 1)
            return try HeifContainer(bytes: bytes, limits: limits).decode()
        }
        let loader: VipsLoader = type == .png ? .png : type == .webp ? .webp : .jpeg
        return try VipsImage.load(loader, bytes: bytes).materialized().autorotated()
    }

    private func write(_ profile: [UInt8], in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("profile-\(UUID().uuidString).icc")
        try Data(profile).write(to: url)
        return url.path
    }

    private static func u32(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return u32(data.count) + typed + u32(Int(crc ^ 0xFFFF_FFFF))
    }

    /// Runs the system's vips command (libvips-tools), failing the test when it fails.
    static func vips(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["vips"] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "vips \(arguments.joined(separator: " ")) failed")
    }
}
