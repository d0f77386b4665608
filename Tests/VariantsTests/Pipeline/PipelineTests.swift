import Testing

@testable import Variants

/// The whole per-object pipeline, in process, on the repository's own samples.
@Suite struct PipelineTests {
    private let pipeline: Pipeline

    init() throws {
        pipeline = try Pipeline()
    }

    private func process(
        _ file: String, as path: String? = nil, declared: String? = nil, pipeline: Pipeline? = nil
    ) throws -> Result<CompletionMetadata, VariantsError> {
        let bytes = try Samples.bytes(file)
        var timings = StageTimings()
        let request = ObjectRequest(bucket: "b", path: path ?? file, declaredContentType: declared)
        return Result { () throws(VariantsError) in
            try (pipeline ?? self.pipeline).run(
                RenditionOrder(request, bucket: nil), bytes: bytes, timings: &timings)
        }
    }

    private func error(_ result: Result<CompletionMetadata, VariantsError>) -> VariantsError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test(arguments: [
        ("pictures/gradient.jpg", "image/jpeg", 320, 200, false),
        ("pictures/gradient.webp", "image/webp", 320, 200, false),
        ("pictures/gradient.gif", "image/gif", 320, 200, false),
        ("pictures/gradient-alpha.png", "image/png", 320, 200, true),
        ("pictures/orientation-6.jpg", "image/jpeg", 200, 320, false),
        ("pictures/rgb-29x100.heif", "image/heic", 29, 100, false),
        ("pictures/hopper.avif", "image/avif", 128, 128, false),
    ])
    func measuresPictures(file: String, type: String, width: Int, height: Int, alpha: Bool) throws {
        let metadata = try process(file).get()
        #expect(metadata.contentType == type)
        #expect(metadata.width == width)
        #expect(metadata.height == height)
        #expect(metadata.hasAlpha == alpha)
        #expect(metadata.checksumSha256.count == 64)
        #expect(metadata.size == (try Samples.bytes(file)).count)
        let hash = try #require(metadata.thumbhash)
        #expect(hash.count >= 8)
    }

    @Test func checksumIsTheSHA256OfTheBytes() throws {
        let metadata = try process("other/sizes.csv").get()
        #expect(metadata.checksumSha256 == "a8f98d8d01f98488c12871e0f8d6161fd1e1ba4198e0aa07be0417a924965672")
    }

    @Test func nonPicturesGetNoPictureFields() throws {
        let csv = try process("other/sizes.csv").get()
        #expect(csv.contentType == "text/csv")
        #expect(csv.width == nil && csv.height == nil && csv.thumbhash == nil && csv.hasAlpha == nil)
        #expect(csv.pages == nil && csv.pageSize == nil)
    }

    @Test func truncatedPictureIsUnreadable() throws {
        let error = try #require(error(try process("pictures/truncated.jpg")))
        #expect(error.code == .unreadablePicture)
        #expect(error.reason == .truncated)
    }

    @Test func nonPictureNamedAsPictureIsUnreadable() throws {
        let error = try #require(error(try process("other/sizes.csv", as: "upload.jpg")))
        #expect(error.code == .unreadablePicture)
        #expect(error.reason == .notAPicture)
        #expect(error.statusCode == 422)
    }

    @Test func pictureTypesWeNeverDecodeAreUnsupported() throws {
        var timings = StageTimings()
        let photoshop: [UInt8] = Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0]
        let result = Result { () throws(VariantsError) in
            try pipeline.run(
                RenditionOrder(ObjectRequest(bucket: "b", path: "x.heic"), bucket: nil), bytes: photoshop,
                timings: &timings)
        }
        #expect(error(result)?.code == .unsupportedMediaType)
    }

    @Test func emptyBytesNamedAsPictureAreUnreadable() throws {
        var timings = StageTimings()
        let result = Result { () throws(VariantsError) in
            try pipeline.run(
                RenditionOrder(ObjectRequest(bucket: "b", path: "empty.heic"), bucket: nil), bytes: [],
                timings: &timings)
        }
        #expect(error(result)?.reason == .empty)
    }

    @Test func pixelLimitIsAppliedFromTheHeader() throws {
        let strict = try Pipeline(limits: Limits(maxPixels: 320 * 199))
        let error = try #require(error(try process("pictures/gradient.jpg", pipeline: strict)))
        #expect(error.reason == .tooManyPixels)
        #expect(try process("pictures/rgb-29x100.heif", pipeline: strict).get().width == 29)
    }

    /// libjpeg refuses a side over 65,500 while reading the header, before the limits are applied: the
    /// frame header, read by our own walk, still says which limit the picture breaks.
    @Test(arguments: [
        (65_535, 65_535, VariantsError.Reason.tooManyPixels), (65_535, 16, .unsupportedFeature),
        (20_000, 20_000, .tooManyPixels),
    ])
    func aJPEGFrameBeyondLibjpegSaysWhy(width: Int, height: Int, reason: VariantsError.Reason) throws {
        var bytes = try Samples.bytes("pictures/gradient.jpg")
        let frame = try #require(
            bytes.indices.dropLast().first { bytes[$0] == 0xFF && (0xC0...0xC2).contains(bytes[$0 + 1]) })
        bytes.replaceSubrange(
            frame + 5..<frame + 9,
            with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        var timings = StageTimings()
        let result = Result { () throws(VariantsError) in
            try pipeline.run(
                RenditionOrder(ObjectRequest(bucket: "b", path: "wide.jpg"), bucket: nil), bytes: bytes,
                timings: &timings)
        }
        #expect(error(result)?.reason == reason, "\(String(describing: error(result)))")
    }

    @Test func byteLimitIsPayloadTooLarge() throws {
        let small = try Pipeline(limits: Limits(maxInputBytes: 100))
        #expect(error(try process("pictures/gradient.jpg", pipeline: small))?.code == .payloadTooLarge)
    }

    @Test func timingsNameEveryStage() throws {
        let bytes = try Samples.bytes("pictures/gradient.jpg")
        var timings = StageTimings()
        _ = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "g.jpg"), bucket: nil), bytes: bytes,
            timings: &timings)
        #expect(Set(timings.seconds.keys) == ["hash", "sniff", "probe", "decode", "thumbhash"])
    }
}
