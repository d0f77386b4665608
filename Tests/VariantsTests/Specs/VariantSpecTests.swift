import Testing

@testable import Variants

/// The canonical JSON of the variant declared with `settings` (the text between its braces).
private func canonical(_ settings: String, name: String = "v") throws -> String {
    let json = #"{"name": "b", "variants": {"\#(name)": {\#(settings)}}}"#
    return try #require(BucketDeclaration(parsing: json.utf8).variant(named: name)).canonicalJSON
}

@Suite struct VariantSpecTests {
    @Test func canonicalJSONIsSortedCompactAndFilled() throws {
        let expected =
            ##"{"background":"#ffffffff","blur":0,"fit":"cover","format":"jpeg","height":200,"##
            + #""position":"centre","progressive":true,"#
            + #""quality":82,"rotate":0,"sharpen":0,"width":200,"withoutEnlargement":true}"#
        #expect(try canonical(#""width": 200, "height": 200"#) == expected)
    }

    @Test func canonicalJSONLeavesOutWhatCannotMatter() throws {
        let expected =
            #"{"blur":1.5,"format":"png","height":null,"rotate":90,"sharpen":0.25,"width":64,"#
            + #""withoutEnlargement":false}"#
        let settings =
            #""width": 64, "format": "png", "quality": 10, "fit": "contain", "position": "north", "#
            + #""background": [1, 2, 3], "blur": 1.5, "sharpen": 0.25, "rotate": 90, "#
            + #""withoutEnlargement": false"#
        #expect(try canonical(settings) == expected)
    }

    @Test func nameIsNotPartOfCanonicalJSON() throws {
        #expect(try canonical(#""width": 10"#, name: "a") == canonical(#""width": 10"#, name: "b"))
    }

    /// Each group spells one rendering several ways: one canonical JSON per group, distinct across groups.
    static let equivalentGroups: [[String]] = [
        [
            #""width": 200, "height": 200"#,
            #""height": 200, "width": 200, "fit": "cover", "position": "centre", "format": "jpeg", "#
                + #""quality": 82"#,
            #""width": 200, "height": 200, "position": "center", "blur": 0, "sharpen": 0.0, "rotate": 360"#,
            ##""width": 200.0, "height": 2e2, "background": "#fff", "withoutEnlargement": true"##,
            #""width": 200, "height": 200, "background": [255, 255, 255, 255], "rotate": -360"#,
        ],
        [
            #""width": 4096"#, #""width": 5000"#, #""width": 4096, "fit": "cover""#,
            #""width": 4096, "fit": "fill", "position": "north""#, #""width": 4096, "fit": "outside""#,
        ],
        [#""width": 300, "rotate": 270"#, #""width": 300, "rotate": -90"#],
        [
            #""width": 300, "height": 100, "fit": "inside", "format": "webp""#,
            #""width": 300, "height": 100, "fit": "inside", "format": "webp", "quality": 80, "#
                + ##""background": "#000""##,
            #""width": 300, "height": 100, "fit": "inside", "format": "webp", "position": "entropy""#,
        ],
        [
            #""width": 300, "height": 100, "format": "png""#,
            #""width": 300, "height": 100, "format": "png", "quality": 5, "background": [0, 0, 0]"#,
        ],
        [#""width": 30, "format": "original""#, #""width": 30, "format": "original", "position": "east""#],
    ]

    @Test func equivalentDeclarationsShareCanonicalJSON() throws {
        var canonicals: [String] = []
        for group in Self.equivalentGroups {
            let forms = try Set(group.map { try canonical($0) })
            #expect(forms.count == 1, "\(group)")
            canonicals.append(contentsOf: forms)
        }
        #expect(Set(canonicals).count == Self.equivalentGroups.count)
    }

    /// A base variant and one change to every setting that alters the rendering.
    static let base = #""width": 200, "height": 100, "format": "jpeg""#
    static let changes: [String] = [
        #""width": 201, "height": 100"#, #""width": 200, "height": 101"#, #""width": 200"#, #""height": 100"#,
        #""width": 200, "height": 100, "fit": "contain""#, #""width": 200, "height": 100, "fit": "fill""#,
        #""width": 200, "height": 100, "fit": "inside""#, #""width": 200, "height": 100, "fit": "outside""#,
        #""width": 200, "height": 100, "position": "north""#,
        #""width": 200, "height": 100, "position": "entropy""#,
        #""width": 200, "height": 100, "position": "attention""#,
        #""width": 200, "height": 100, "format": "png""#,
        #""width": 200, "height": 100, "format": "webp""#, #""width": 200, "height": 100, "format": "avif""#,
        #""width": 200, "height": 100, "format": "original""#, #""width": 200, "height": 100, "quality": 81"#,
        #""width": 200, "height": 100, "blur": 0.5"#, #""width": 200, "height": 100, "sharpen": 2"#,
        #""width": 200, "height": 100, "rotate": 90"#, #""width": 200, "height": 100, "rotate": 180"#,
        #""width": 200, "height": 100, "background": [0, 0, 0]"#,
        ##""width": 200, "height": 100, "background": "#fffffffe""##,
        #""width": 200, "height": 100, "withoutEnlargement": false"#,
        #""width": 200, "height": 100, "progressive": false"#,
        #""width": 200, "height": 100, "format": "original", "quality": 82"#,
    ]

    @Test func everyRenderingChangeAltersCanonicalJSON() throws {
        let all = try [canonical(Self.base)] + Self.changes.map { try canonical($0) }
        #expect(Set(all).count == all.count)
    }

    /// JPEG flattens alpha onto the background and may be progressive, and `original` may turn out to be
    /// JPEG.
    @Test(
        arguments: [OutputFormat.jpeg, .original, .png, .webp, .avif],
        [#""background": [0, 0, 0]"#, #""progressive": false"#])
    func jpegSettingsMatterOnlyWhenOutputMayBeJPEG(format: OutputFormat, setting: String) throws {
        let plain = #""width": 20, "height": 20, "fit": "inside", "format": "\#(format.rawValue)""#
        let changed = try canonical(plain + ", " + setting)
        let mayBeJPEG = format == .jpeg || format == .original
        #expect((try canonical(plain) != changed) == mayBeJPEG)
    }

    /// An undeclared `effort` encodes a WebP as a declared 4 does, so the two share a key, which another effort
    /// does not; a JPEG is written the same at any effort and keys so.
    @Test func effortKeysOnlyAWebPAwayFromTheDefault() throws {
        let webp = #""width": 200, "format": "webp""#
        #expect(try canonical(webp) == canonical(webp + #", "effort": 4"#))
        #expect(try canonical(webp) != canonical(webp + #", "effort": 6"#))
        #expect(try canonical(webp + #", "effort": 6"#).contains(#""effort":6"#))
        let original = #""width": 200, "format": "original""#
        #expect(try canonical(original) != canonical(original + #", "effort": 0"#))
        let jpeg = #""width": 200, "format": "jpeg""#
        #expect(try canonical(jpeg) == canonical(jpeg + #", "effort": 6"#))
    }

    /// `metadata: "none"` keys as an undeclared one, so no key made before the setting existed moves;
    /// `copyright` keys only a format whose encoder writes it (not PNG).
    @Test func metadataKeysOnlyWhereItIsWritten() throws {
        for format in ["jpeg", "webp", "avif", "original"] {
            let plain = #""width": 200, "format": "\#(format)""#
            #expect(try canonical(plain) == canonical(plain + #", "metadata": "none""#))
            #expect(try canonical(plain + #", "metadata": "copyright""#).contains(#""metadata":"copyright""#))
        }
        let png = #""width": 200, "format": "png""#
        #expect(try canonical(png) == canonical(png + #", "metadata": "copyright""#))
    }

    /// An undeclared `progressive` writes what `true` writes, so the two share a key; `false` does not.
    @Test func progressiveUnlessDeclaredFalse() throws {
        let plain = #""width": 20, "format": "jpeg""#
        #expect(try canonical(plain) == canonical(plain + #", "progressive": true"#))
        #expect(try canonical(plain) != canonical(plain + #", "progressive": false"#))
    }

    @Test func backgroundMattersForContainEvenInPNG() throws {
        let plain = #""width": 20, "height": 20, "fit": "contain", "format": "png""#
        #expect(try canonical(plain) != canonical(plain + #", "background": [0, 0, 0, 0]"#))
    }

    @Test func canonicalJSONIsStableAcrossParses() throws {
        let spec = try BucketDeclaration(parsing: Samples.bucket("everything.json"))
        let again = try BucketDeclaration(parsing: Samples.bucket("everything.json"))
        #expect(spec.variants.map(\.canonicalJSON) == again.variants.map(\.canonicalJSON))
        #expect(Set(spec.variants.map(\.canonicalJSON)).count == spec.variants.count)
    }
}
