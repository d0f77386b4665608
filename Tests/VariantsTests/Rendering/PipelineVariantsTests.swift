import Foundation
import Testing

@testable import Variants

/// Every variant of a bucket rendered end to end from the repository's samples, each output read back by an
/// independent header reader and compared with its source by a perceptual distance.
@Suite struct PipelineVariantsTests {
    private let bucket: BucketDeclaration
    private let store: RenditionFolder
    private let pipeline: Pipeline

    init() throws {
        bucket = try BucketDeclaration(parsing: try Samples.bucket("everything.json"))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-store-\(UUID().uuidString)")
        store = try RenditionFolder(root: root.path)
        pipeline = try Pipeline(store: store)
    }

    private func process(_ file: String) throws -> CompletionMetadata {
        var timings = StageTimings()
        return try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "everything", path: file), bucket: bucket),
            bytes: try Samples.bytes(file), timings: &timings)
    }

    /// Each rendition's stored bytes, by variant name, of `sample` processed under `declaration`.
    private func storedRenditions(_ declaration: String, sample: String) throws -> [String: [UInt8]] {
        let bucket = try BucketDeclaration(parsing: declaration.utf8)
        var timings = StageTimings()
        let metadata = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: bucket.name, path: sample), bucket: bucket),
            bytes: try Samples.bytes(sample), timings: &timings)
        var stored: [String: [UInt8]] = [:]
        for (name, rendition) in try #require(metadata.renditions) {
            let bytes = try #require(store.existing(rendition.key), "\(name) was not written")
            stored[name] = bytes
        }
        return stored
    }

    @Test(arguments: [
        "pictures/gradient.jpg", "pictures/gradient-alpha.png", "pictures/gradient.webp",
        "pictures/gradient.gif",
        "pictures/orientation-6.jpg", "pictures/rgb-29x100.heif", "pictures/hopper.avif",
    ])
    func everyVariantIsWrittenAsReported(file: String) throws {
        let metadata = try process(file)
        let renditions = try #require(metadata.renditions)
        #expect(Set(renditions.keys) == Set(bucket.variants.map(\.name)))
        for (name, rendition) in renditions {
            #expect(metadata.variants?[name] == "/v1/files/everything/\(file)?variant=\(name)")
            let bytes = try #require(store.existing(rendition.key), "\(name) was not written")
            #expect(bytes.count == rendition.size)
            #expect(SHA256.hex(bytes) == rendition.checksumSha256)
            let read = try #require(EncodedFile(bytes), "\(name) cannot be read back")
            #expect(read.width == rendition.width && read.height == rendition.height, "\(name)")
            #expect(!read.hasMetadata, "\(name) kept a metadata block")
            let expectedFormat: [String: EncodedFile.Format] = [
                "image/jpeg": .jpeg, "image/png": .png, "image/webp": .webp, "image/avif": .avif,
            ]
            #expect(read.format == expectedFormat[rendition.contentType], "\(name)")
        }
    }

    @Test func sizesFollowTheDeclaration() throws {
        let renditions = try #require(try process("pictures/orientation-6.jpg").renditions)
        let sizes = renditions.mapValues { [$0.width, $0.height] }
        // The source displays 200×320 after its EXIF orientation.
        #expect(sizes["cover-north"] == [64, 48])
        #expect(sizes["contain-letterbox"] == [64, 64])
        #expect(sizes["fill-blurred"] == [64, 32])
        #expect(sizes["inside-original"] == [50, 80])
        #expect(sizes["outside-rotated"] == [77, 48])
        #expect(sizes["width-only-on-black"] == [32, 51])
        #expect(renditions["inside-original"]?.contentType == "image/jpeg")
        #expect(renditions["cover-attention"]?.contentType == "image/png")
    }

    /// A JPEG is progressive unless declared `false`, which writes a baseline JPEG of the same size (a frame a
    /// baseline-only decoder reads: SOF0, not SOF1); a WebP variant declaring it is unchanged.
    @Test func jpegsAreProgressiveUnlessDeclaredFalse() throws {
        let declaration = #"""
            { "name": "p", "variants": {
                "baseline": { "width": 400, "format": "jpeg", "progressive": false },
                "progressive": { "width": 400, "format": "jpeg" },
                "webp": { "width": 64, "format": "webp", "progressive": true } } }
            """#
        let stored = try storedRenditions(declaration, sample: "pictures/gradient.jpg")
        func read(_ name: String) throws -> EncodedFile {
            let bytes = try #require(stored[name])
            return try #require(EncodedFile(bytes))
        }
        let (baseline, progressive, webp) = (try read("baseline"), try read("progressive"), try read("webp"))
        #expect(!baseline.progressive && progressive.progressive && !webp.progressive)
        #expect(progressive.width == baseline.width && progressive.height == baseline.height)
        #expect(progressive.format == .jpeg && webp.format == .webp)
        let frames = try ["baseline", "progressive"].map { name in
            let bytes = try #require(stored[name])
            return try Self.frameMarker(of: bytes)
        }
        #expect(frames == [0xC0, 0xC2])
    }

    /// A WebP's `effort` is libwebp's: more effort, fewer bytes for a photo at the same size and quality.
    @Test func moreEffortWritesAWebPInFewerBytes() throws {
        let declaration = #"""
            { "name": "e", "variants": {
                "fast": { "width": 128, "format": "webp", "effort": 0 },
                "default": { "width": 128, "format": "webp" },
                "slow": { "width": 128, "format": "webp", "effort": 6 } } }
            """#
        let stored = try storedRenditions(declaration, sample: "pictures/hopper.avif")
        let files = try ["fast", "default", "slow"].map { name in
            let bytes = try #require(stored[name])
            return (bytes.count, try #require(EncodedFile(bytes)))
        }
        #expect(files.allSatisfy { $0.1.format == .webp && $0.1.width == 128 && $0.1.height == 128 })
        #expect(files[0].0 > files[1].0 && files[1].0 > files[2].0, "\(files.map(\.0))")
    }

    /// The marker of a JPEG's frame header: the first SOFn among the segments before its first scan.
    private static func frameMarker(of jpeg: [UInt8]) throws -> UInt8 {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let marker = jpeg[offset + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return marker }
            offset += 2 + Int(jpeg[offset + 2]) << 8 + Int(jpeg[offset + 3])
        }
        throw VariantsError(.internalError, "no frame header before the first scan")
    }

    @Test func alphaIsKeptWherePossibleAndFlattenedIntoJPEG() throws {
        let renditions = try #require(try process("pictures/gradient-alpha.png").renditions)
        let pngKey = try #require(renditions["cover-attention"]?.key)
        let jpegKey = try #require(renditions["width-only-on-black"]?.key)
        let png = try #require(store.existing(pngKey))
        let jpeg = try #require(store.existing(jpegKey))
        #expect(try VipsImage.load(.png, bytes: png).hasAlpha)
        #expect(!(try VipsImage.load(.jpeg, bytes: jpeg).hasAlpha))
        #expect(renditions["inside-original"]?.contentType == "image/png")
    }

    @Test(arguments: ["fill-blurred", "inside-original", "outside-rotated"])
    func renditionsLookLikeTheirSource(variant: String) throws {
        let file = "pictures/orientation-6.jpg"
        let rendition = try #require(try process(file).renditions?[variant])
        let output = try #require(store.existing(rendition.key))
        let loader: VipsLoader = rendition.contentType == "image/webp" ? .webp : .jpeg
        var source = try VipsImage.load(.jpeg, bytes: try Samples.bytes(file)).materialized().autorotated()
        if variant == "outside-rotated" { source = try source.rotated(degrees: 90) }
        let distance = try Perceptual.distance(
            source, try VipsImage.load(loader, bytes: output).convertedToSRGB(intent: .perceptual).image)
        #expect(distance < 0.08, "mean difference \(distance)")
        let unrelated = try VipsImage.load(.png, bytes: try Samples.bytes("pictures/gradient-alpha.png"))
        #expect(try Perceptual.distance(source, unrelated.flattened(background: (0, 0, 0))) > distance)
    }

    @Test func identicalBytesReuseTheirRenditions() throws {
        let first = try process("pictures/gradient.webp")
        let key = try #require(first.renditions?["cover-north"]?.key)
        let path = store.root + "/" + key
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let second = try process("pictures/gradient.webp")
        #expect(second.renditions == first.renditions)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written)
    }

    /// The ThumbHash resamples from the ladder the renditions leave; a rendition taken from the store must
    /// leave the same rung, or a re-posted object gets another placeholder. Photos show it: their
    /// renditions are large enough to become rungs and their detail moves the hash.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: ColourConversionTests.corpus.path),
            "../shared/corpus is absent"),
        arguments: ["photos/jpeg", "photos/heic"])
    func reusedRenditionsKeepTheThumbHash(folder: String) throws {
        let postImages = try BucketDeclaration(parsing: try Samples.bucket("post-images.json"))
        let directory = ColourConversionTests.corpus.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().prefix(3)
        #expect(!names.isEmpty)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
            var timings = StageTimings()
            let request = ObjectRequest(bucket: "post-images", path: name)
            let first = try pipeline.run(
                RenditionOrder(request, bucket: postImages), bytes: bytes, timings: &timings)
            let second = try pipeline.run(
                RenditionOrder(request, bucket: postImages), bytes: bytes, timings: &timings)
            #expect(second.renditions == first.renditions)
            #expect(second.thumbhash == first.thumbhash, "\(name)")
        }
    }

    @Test func nothingIsLeftUnfinished() throws {
        _ = try process("pictures/gradient.jpg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.temporaryDirectory).isEmpty)
    }

    @Test func bucketPolicyIsAppliedBeforeDecoding() throws {
        var timings = StageTimings()
        let pdf = try Samples.bytes("other/document.pdf")
        let refused = Result { () throws(VariantsError) in
            try pipeline.run(
                RenditionOrder(ObjectRequest(bucket: "e", path: "d.pdf"), bucket: bucket), bytes: pdf,
                timings: &timings)
        }
        #expect(throws: VariantsError.self) { try refused.get() }
        if case .failure(let error) = refused { #expect(error.code == .unsupportedMediaType) }
        #expect(timings.seconds["decode"] == nil)
    }
}
