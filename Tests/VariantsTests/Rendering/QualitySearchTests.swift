import SSIMULACRA2
import Testing

@testable import Variants

/// `quality: "auto"` and score targets: the rendition reaches its target, and one quality step less would not.
@Suite struct QualitySearchTests {
    init() throws {
        try Vips.start()
    }

    /// The sample photo reduced, as a rendition is before it is encoded.
    private func rendition() throws -> VipsImage {
        try VipsImage.load(.jpeg, bytes: try Samples.bytes("pictures/gradient.jpg")).resized(
            toWidth: 240, height: 150
        ).materialized()
    }

    private func encode(_ image: VipsImage, _ format: OutputFormat, quality: Int) throws -> [UInt8] {
        let spec = VariantSpec(name: "v", width: 240, height: nil, format: format, quality: quality)
        let plan = RenderPlan(
            sourceWidth: 240, sourceHeight: 150, spec: spec, sourceHasAlpha: false, sourceFormat: .jpeg)
        return try Renderer.encode(image, plan: plan).bytes
    }

    private func score(_ bytes: [UInt8], _ format: OutputFormat, against original: SSIMULACRA2.Original)
        throws
        -> Double
    {
        try original.score(
            QualitySearch.picture(of: VipsImage.load(format == .jpeg ? .jpeg : .webp, bytes: bytes)))
    }

    @Test(arguments: [
        (OutputFormat.jpeg, QualityTarget.auto), (.jpeg, .ssimulacra2(90)), (.webp, .auto),
        (.webp, .ssimulacra2(60)),
    ])
    func theRenditionReachesItsTargetAndOneStepLessWouldNot(format: OutputFormat, target: QualityTarget)
        throws
    {
        let image = try rendition()
        let spec = VariantSpec(name: "v", width: 240, height: nil, format: format, qualityTarget: target)
        let plan = RenderPlan(
            sourceWidth: 240, sourceHeight: 150, spec: spec, sourceHasAlpha: false, sourceFormat: .jpeg)
        let score = Double(try #require(plan.scoreTarget))
        let bytes = try Renderer.encode(image, plan: plan).bytes
        let original = SSIMULACRA2.Original(try QualitySearch.picture(of: image))
        #expect(try self.score(bytes, format, against: original) >= score)
        // The quality it was written at is the one whose encode gives the same bytes.
        let quality = try #require(try (1...100).first { try encode(image, format, quality: $0) == bytes })
        #expect(quality > 1, "the search should need more than the lowest quality for this picture")
        let lower = try encode(image, format, quality: quality - 1)
        #expect(try self.score(lower, format, against: original) < score)
    }

    /// A higher target asks for at least the quality a lower one found; a target near what the default quality
    /// reaches takes fewer tries than a bisection's seven.
    @Test func aHigherTargetNeedsAtLeastTheQuality() throws {
        let image = try rendition()
        let encode = { (quality: Int) throws(BackendError) in
            try JPEGEncoder.encode(image, quality: quality, progressive: false, optimizedCoding: false)
        }
        let low = try #require(
            try QualitySearch.lowest(reaching: 60, of: image, format: .jpeg, encode: encode))
        let high = try #require(
            try QualitySearch.lowest(reaching: 90, of: image, format: .jpeg, encode: encode))
        #expect(low.quality < high.quality)
        #expect(high.encodes < 7, "\(high.quality) in \(high.encodes) tries")
    }

    /// A first try that reaches the target by less than the format's points per step sends the second to the
    /// next quality down, and the search ends there when that one falls short: two tries, not a stride of ten
    /// and a bracket to narrow.
    @Test func aSmallGapMovesTheSecondTryOneStep() throws {
        let image = try rendition()
        let encode = { (quality: Int) throws(BackendError) in
            try JPEGEncoder.encode(image, quality: quality, progressive: false, optimizedCoding: false)
        }
        let first = try #require(OutputFormat.jpeg.defaultQuality)
        let original = SSIMULACRA2.Original(try QualitySearch.picture(of: image))
        let atFirst = try score(try encode(first), .jpeg, against: original)
        let below = try score(try encode(first - 1), .jpeg, against: original)
        try #require(below < atFirst, "the fixture's score should fall one quality below the default")
        let found = try #require(
            try QualitySearch.lowest(reaching: atFirst, of: image, format: .jpeg, encode: encode))
        #expect(found.quality == first)
        #expect(found.encodes == 2)
    }

    /// Under 8 pixels a side the metric cannot score: the plan's fixed quality is used instead.
    @Test func aRenditionTooSmallToScoreKeepsTheDefaultQuality() throws {
        let image = try rendition().resized(toWidth: 6, height: 4).materialized()
        let encode = { (quality: Int) throws(BackendError) in
            try JPEGEncoder.encode(image, quality: quality, progressive: false, optimizedCoding: false)
        }
        #expect(try QualitySearch.lowest(reaching: 80, of: image, format: .jpeg, encode: encode) == nil)
    }
}
