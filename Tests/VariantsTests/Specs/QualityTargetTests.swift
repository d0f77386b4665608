import Testing

@testable import Variants

/// `quality: "auto"` and `{"ssimulacra2": N}`: read by the declaration's rules, keyed apart from any fixed
/// quality.
@Suite struct QualityTargetTests {
    private func variant(_ settings: String) throws -> VariantSpec {
        let text = #"{"name": "b", "variants": {"v": {"width": 100, "# + settings + "}}}"
        return try #require(BucketDeclaration(parsing: Array(text.utf8)).variants.first)
    }

    private func key(_ settings: String) throws -> String {
        RenditionKey.specKey(of: try variant(settings))
    }

    @Test(arguments: [
        (#""format": "webp", "quality": "auto""#, QualityTarget.auto),
        (#""format": "jpeg", "quality": {"ssimulacra2": 85}"#, .ssimulacra2(85)),
        (#""quality": {"ssimulacra2": 30.0}"#, .ssimulacra2(30)),
        (#""format": "original", "quality": "auto""#, .auto),
        (#""format": "avif", "quality": "auto""#, .auto),
    ])
    func readsATarget(settings: String, target: QualityTarget) throws {
        let spec = try variant(settings)
        #expect(spec.qualityTarget == target)
        #expect(spec.quality == nil)
    }

    @Test(arguments: [
        (
            #""quality": {"ssimulacra2": 29}"#,
            "variants.v.quality.ssimulacra2: expected integer in 30…95, got 29"
        ),
        (
            #""quality": {"ssimulacra2": 96}"#,
            "variants.v.quality.ssimulacra2: expected integer in 30…95, got 96"
        ),
        (
            #""quality": {"ssimulacra2": 85.5}"#,
            "variants.v.quality.ssimulacra2: expected integer in 30…95, got 85.5"
        ),
        (
            #""quality": {"butteraugli": 1}"#,
            "variants.v.quality.butteraugli: expected one of the keys ssimulacra2, got unknown key"
        ),
        (#""quality": {}"#, #"variants.v.quality: expected {"ssimulacra2": integer in 30…95}, got {}"#),
        (
            #""quality": "Auto""#,
            #"variants.v.quality: expected integer in 1…100, "auto" or {"ssimulacra2": 30…95}, got "Auto""#
        ),
    ])
    func refusesNamingTheField(settings: String, message: String) {
        #expect(throws: VariantsError(.invalidTransform, message)) {
            try variant(settings)
        }
    }

    @Test func aTargetKeysApartFromEveryFixedQuality() throws {
        let automatic = try key(#""format": "webp", "quality": "auto""#)
        for quality in 1...100 {
            #expect(try key(#""format": "webp", "quality": \#(quality)"#) != automatic)
        }
        #expect(try key(#""format": "webp", "quality": {"ssimulacra2": 76}"#) != automatic)
    }

    /// "auto" is its format's default target spelled out, so both make the same rendition under one key.
    @Test(arguments: [OutputFormat.jpeg, .webp])
    func autoKeysAsItsFormatsDefaultTarget(format: OutputFormat) throws {
        let target = try #require(format.defaultScoreTarget)
        #expect(
            try key(#""format": "\#(format.rawValue)", "quality": "auto""#)
                == key(#""format": "\#(format.rawValue)", "quality": {"ssimulacra2": \#(target)}"#))
    }

    /// PNG is lossless: a target changes nothing, as a fixed quality changes nothing.
    @Test func pngIgnoresATarget() throws {
        #expect(try key(#""format": "png", "quality": "auto""#) == key(#""format": "png""#))
        let plan = RenderPlan(
            sourceWidth: 300, sourceHeight: 200, spec: try variant(#""format": "png", "quality": "auto""#),
            sourceHasAlpha: false, sourceFormat: .jpeg)
        #expect(plan.scoreTarget == nil)
        #expect(plan.quality == nil)
    }

    /// `original` learns its format from the source: a WebP source searches for WebP's target, an AVIF one
    /// keeps AVIF's fixed default, as a declared AVIF does.
    @Test func originalResolvesItsTargetFromTheSource() throws {
        let spec = try variant(#""format": "original", "quality": "auto""#)
        let webp = RenderPlan(
            sourceWidth: 300, sourceHeight: 200, spec: spec, sourceHasAlpha: false, sourceFormat: .webp)
        #expect(webp.scoreTarget == OutputFormat.webp.defaultScoreTarget)
        let avif = RenderPlan(
            sourceWidth: 300, sourceHeight: 200, spec: spec, sourceHasAlpha: false, sourceFormat: .avif)
        #expect(avif.scoreTarget == nil)
        #expect(avif.quality == OutputFormat.avif.defaultQuality)
        let declared = RenderPlan(
            sourceWidth: 300, sourceHeight: 200, spec: try variant(#""format": "avif", "quality": "auto""#),
            sourceHasAlpha: false, sourceFormat: .jpeg)
        #expect(declared.scoreTarget == nil && declared.quality == OutputFormat.avif.defaultQuality)
    }

    @Test func theDeclarationWritesTheTargetBack() throws {
        let spec = try variant(#""format": "jpeg", "quality": {"ssimulacra2": 85}"#)
        #expect(spec.declarationJSON.contains(#""quality":{"ssimulacra2":85}"#))
        let text = #"{"name": "b", "variants": {"v": "# + spec.declarationJSON + "}}"
        #expect(
            try BucketDeclaration(parsing: Array(text.utf8)).variants.first?.qualityTarget == .ssimulacra2(85)
        )
    }
}
