import Foundation
import Testing

@testable import Variants

/// The table of formats against what the code does with each format: a row that claims what the code does
/// not do fails here, and so does a decoded or animated type without a picture to prove it on.
@Suite struct FormatFactsTests {
    /// Every extension and declared spelling of the table names its type back, in any case, and no two types
    /// claim one.
    @Test(arguments: MediaType.allCases)
    func namesNameTheirType(type: MediaType) {
        for name in type.facts.extensions {
            #expect(name == name.lowercased())
            #expect(MediaType(fileExtension: name) == type)
            #expect(MediaType(fileExtension: name.uppercased()) == type)
            #expect(Sniffer.resolve(sniffed: nil, declared: nil, fileName: "a/b.\(name)") == type)
        }
        for alias in type.facts.aliases {
            #expect(MediaType(declared: alias.uppercased() + "; q=1") == type)
            #expect(MediaType(rawValue: alias) == nil)
        }
        let others = MediaType.allCases.filter { $0 != type }
        #expect(Set(type.facts.extensions).isDisjoint(with: others.flatMap(\.facts.extensions)))
        #expect(Set(type.facts.aliases).isDisjoint(with: others.flatMap(\.facts.aliases)))
    }

    /// A picture of every type said to be decoded opens with the decoder the table names and through the
    /// pipeline; every other type is refused before any decoder sees it.
    @Test(arguments: MediaType.allCases)
    func decodedTypesDecode(type: MediaType) throws {
        guard let decoder = type.facts.decoder else {
            #expect(!type.isDecodable && !BuildInfo.decodes.contains(type))
            #expect(throws: VariantsError(.unsupportedMediaType, "\(type.mimeType) is not decoded here")) {
                try OpenedPicture(bytes: [1, 2, 3, 4], type: type, limits: .default)
            }
            return
        }
        #expect(type.isDecodable && BuildInfo.decodes.contains(type))
        let bytes = try #require(try Self.still(of: type), "no sample of \(type.mimeType)")
        #expect(Sniffer.sniff(bytes[...]) == type)
        let width: Int
        switch decoder {
        case .vips(let loader): width = try VipsImage.load(loader, bytes: bytes).header.width
        case .heif: width = try HeifContainer(bytes: bytes, limits: Self.heifLimits).info.width
        case .video(let demuxer): width = try FFmpeg.streamInfo(bytes, demuxer: demuxer).width
        }
        var timings = StageTimings()
        let metadata = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "facts", path: "picture"), bucket: nil), bytes: bytes,
            timings: &timings)
        #expect(metadata.contentType == type.mimeType)
        #expect(width > 0 && metadata.width ?? 0 > 0)
    }

    /// Every type said to have an encoder writes a 2×2 picture with alpha that sniffs back as that type, is
    /// stored under its first extension and served as its type, keeps alpha exactly when the table says so,
    /// and is what `original` keeps a source of that type as.
    @Test(arguments: MediaType.allCases.filter { $0.facts.encoder != nil })
    func encodersWriteTheirType(type: MediaType) throws {
        let encoder = try #require(type.facts.encoder)
        #expect(encoder.format.writtenType == type)
        #expect(OutputFormat(keeping: type) == encoder.format)
        #expect(BuildInfo.encodes.contains(encoder.format))
        let look = try LookPipeline(settings: #"{"width":2,"format":"\#(encoder.format.rawValue)"}"#)
        let spec = try #require(look.bucket.variants.first)
        let plan = RenderPlan(
            sourceWidth: 2, sourceHeight: 2, spec: spec, sourceHasAlpha: true, sourceFormat: nil)
        #expect(plan.quality == encoder.defaultQuality)
        #expect(plan.flattenOnto == nil || !type.facts.alpha)

        var timings = StageTimings()
        let made = try look.pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "look", path: "a.png"), bucket: look.bucket),
            bytes: try Self.translucentPNG(), timings: &timings)
        let rendition = try #require(made.renditions?["look"])
        #expect(rendition.contentType == type.mimeType)
        #expect(rendition.key.hasSuffix(".\(type.facts.extensions[0])"))
        #expect(RenditionKey.contentType(of: rendition.key) == type.mimeType)
        let bytes = try #require(look.store.existing(rendition.key))
        #expect(Sniffer.sniff(bytes[...]) == type)
        let back = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "facts", path: "rendition"), bucket: nil), bytes: bytes,
            timings: &timings)
        #expect(back.contentType == type.mimeType)
        #expect(back.width == 2 && back.height == 2)
        #expect(back.hasAlpha == type.facts.alpha)

        // Encoded directly, without the plan's flattening, alpha survives exactly where the table says.
        let direct = try? Renderer.encode(try Self.translucentImage(), plan: plan).bytes
        let kept = try direct.map {
            try Pipeline().run(
                RenditionOrder(ObjectRequest(bucket: "facts", path: "direct"), bucket: nil), bytes: $0,
                timings: &timings
            )
            .hasAlpha == true
        }
        #expect((kept ?? false) == type.facts.alpha)
    }

    /// Every output format but `original`, which a plan resolves first, is written as exactly one type.
    @Test func everyOutputFormatIsOneTypesEncoder() {
        for format in OutputFormat.allCases {
            let writers = MediaType.allCases.filter { $0.facts.encoder?.format == format }
            #expect(writers.count == (format == .original ? 0 : 1), "\(format)")
            #expect(format.writtenType == writers.first)
        }
    }

    /// The decoded types with animated pictures are exactly those said to animate, and their pictures are
    /// read with all their frames.
    @Test(arguments: MediaType.allCases.filter(\.isDecodable))
    func animatedTypesKeepTheirFrames(type: MediaType) throws {
        guard let bytes = try Self.animated(of: type) else {
            #expect(!type.facts.animates, "no animated sample of \(type.mimeType)")
            return
        }
        #expect(type.facts.animates)
        var timings = StageTimings()
        let metadata = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "facts", path: "moving"), bucket: nil), bytes: bytes,
            timings: &timings)
        #expect(metadata.contentType == type.mimeType)
        #expect(metadata.frames == 2)
    }

    /// An animated source asked for `animated` in every type with an encoder plays its frames exactly where
    /// the table says the type animates, and is a still elsewhere.
    @Test(arguments: MediaType.allCases.filter { $0.facts.encoder != nil })
    func renditionsAnimateWhereTheTableSays(type: MediaType) throws {
        let format = try #require(type.facts.encoder?.format)
        let look = try LookPipeline(settings: #"{"width":4,"format":"\#(format.rawValue)","animated":true}"#)
        let rendition = try look.rendition(of: try Self.animatedWebP(), path: "moving.webp")
        var timings = StageTimings()
        let back = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "facts", path: "rendition"), bucket: nil), bytes: rendition,
            timings: &timings)
        #expect(back.contentType == type.mimeType)
        #expect((back.frames ?? 1) == (type.facts.animates ? 2 : 1))
    }

    // MARK: - Pictures

    private static let heifLimits = HeifContainer.Limits(
        maxPixels: 1 << 24, maxMemoryBlock: 1 << 28, maxItems: 100, maxTiles: 100, threads: 1)

    /// A still picture of each decoded type: the samples, and copies of HEIF ones with the brands of the types
    /// no sample has.
    private static func still(of type: MediaType) throws -> [UInt8]? {
        switch type {
        case .jpeg: try Samples.bytes("pictures/gradient.jpg")
        case .png: try Samples.bytes("pictures/gradient-alpha.png")
        case .gif: try Samples.bytes("pictures/gradient.gif")
        case .webp: try Samples.bytes("pictures/gradient.webp")
        case .avif: try Samples.bytes("pictures/hopper.avif")
        case .heic: try Samples.bytes("pictures/rgb-29x100.heif")
        case .heif: rebranded(try Samples.bytes("pictures/rgb-29x100.heif"), major: "mif1")
        case .heifSequence: rebranded(try Samples.bytes("pictures/rgb-29x100.heif"), major: "msf1")
        case .avifSequence: rebranded(try Samples.bytes("pictures/hopper.avif"), major: "msf1", avif: "avis")
        case .mp4: try Samples.bytes("videos/portrait-h264.mp4")
        case .quickTime: try Samples.bytes("videos/portrait-hevc.mov")
        case .webm: try Samples.bytes("videos/portrait-vp9.webm")
        case .matroska: try Samples.bytes("videos/portrait-h264.mkv")
        default: nil
        }
    }

    /// `bytes` with the `ftyp` box's major brand replaced, and a compatible `avif` brand renamed.
    private static func rebranded(_ bytes: [UInt8], major: String, avif: String = "avif") -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(8..<12, with: Array(major.utf8))
        let boxEnd = Int(bytes[3])
        for offset in stride(from: 16, to: boxEnd, by: 4)
        where copy[offset..<offset + 4].elementsEqual("avif".utf8) {
            copy.replaceSubrange(offset..<offset + 4, with: Array(avif.utf8))
        }
        return copy
    }

    /// A two-frame picture of each animated type.
    private static func animated(of type: MediaType) throws -> [UInt8]? {
        switch type {
        case .webp: try animatedWebP()
        case .gif:
            TestGIF(
                width: 4, height: 4, palette: [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]],
                background: 3,
                frames: (0..<2).map {
                    TestGIF.Frame(left: 0, top: 0, width: 4, height: 4, colour: UInt8($0), disposal: .keep)
                }
            ).bytes
        default: nil
        }
    }

    /// Two 4×4 frames of different colours, 100 ms each.
    private static func animatedWebP() throws -> [UInt8] {
        try WebPEncoder.encodeAnimation(
            frames: [[200, 30, 30], [30, 30, 200]].map { Array(repeating: $0, count: 16).flatMap { $0 } },
            width: 4, height: 4, bands: 3, delays: [100, 100], loop: 0, quality: 100, effort: 4, threads: 1)
    }

    /// A 2×2 PNG whose pixels are half transparent.
    private static func translucentPNG() throws -> [UInt8] {
        try translucentImage().encodedAsPNG(effort: 1)
    }

    /// 2×2 half-transparent pixels.
    private static func translucentImage() throws -> VipsImage {
        try PixelImage.make(
            Array(repeating: [40, 120, 200, 128], count: 4).flatMap { $0 }, width: 2, height: 2, bands: 4)
    }
}
