import Foundation
import Testing

@testable import Variants

/// A declaration with one variant `v` whose settings are `settings` (the text between the braces).
private func bucket(variant settings: String) -> String {
    #"{"name": "b", "variants": {"v": {\#(settings)}}}"#
}

/// The error parsing `json` throws, or `nil` when it parses.
private func failure(_ json: String) -> VariantsError? {
    do {
        _ = try BucketDeclaration(parsing: json.utf8)
        return nil
    } catch {
        return error
    }
}

private func variant(_ settings: String) throws -> VariantSpec {
    try #require(BucketDeclaration(parsing: bucket(variant: settings).utf8).variant(named: "v"))
}

@Suite struct BucketDeclarationParsingTests {
    // MARK: - Variant rules

    static let invalidSettings: [(settings: String, message: String)] = [
        (#""width": 0"#, "variants.v.width: expected integer ≥ 1, got 0"),
        (#""width": -5"#, "variants.v.width: expected integer ≥ 1, got -5"),
        (#""width": 1.5"#, "variants.v.width: expected integer ≥ 1, got 1.5"),
        (#""width": "200""#, #"variants.v.width: expected integer ≥ 1, got "200""#),
        (#""width": true"#, "variants.v.width: expected integer ≥ 1, got true"),
        (#""width": 1e400"#, "variants.v.width: expected integer ≥ 1, got 1e400"),
        (#""height": 0"#, "variants.v.height: expected integer ≥ 1, got 0"),
        ("", "variants.v: expected width or height, got neither"),
        (#""width": null, "fit": "cover""#, "variants.v: expected width or height, got neither"),
        (
            #""width": 1, "fit": "stretch""#,
            #"variants.v.fit: expected one of cover, contain, fill, inside, outside, got "stretch""#
        ),
        (
            #""width": 1, "fit": "Cover""#,
            #"variants.v.fit: expected one of cover, contain, fill, inside, outside, got "Cover""#
        ),
        (
            #""width": 1, "position": "middle""#,
            "variants.v.position: expected one of centre, north, northeast, east, southeast, south, "
                + #"southwest, west, northwest, entropy, attention, got "middle""#
        ),
        (
            #""width": 1, "format": "gif""#,
            #"variants.v.format: expected one of jpeg, png, webp, avif, original, got "gif""#
        ),
        (#""width": 1, "quality": 0"#, "variants.v.quality: expected integer in 1…100, got 0"),
        (#""width": 1, "quality": 101"#, "variants.v.quality: expected integer in 1…100, got 101"),
        (#""width": 1, "effort": 7"#, "variants.v.effort: expected integer in 0…6, got 7"),
        (#""width": 1, "effort": -1"#, "variants.v.effort: expected integer in 0…6, got -1"),
        (#""width": 1, "effort": 4.5"#, "variants.v.effort: expected integer in 0…6, got 4.5"),
        (#""width": 1, "quality": 50.5"#, "variants.v.quality: expected integer in 1…100, got 50.5"),
        (
            #""width": 1, "quality": "high""#,
            #"variants.v.quality: expected integer in 1…100, "auto" or {"ssimulacra2": 30…95}, got "high""#
        ),
        (#""width": 1, "blur": -1"#, "variants.v.blur: expected number in 0…20, got -1"),
        (#""width": 1, "blur": 20.5"#, "variants.v.blur: expected number in 0…20, got 20.5"),
        (#""width": 1, "blur": "soft""#, #"variants.v.blur: expected number in 0…20, got "soft""#),
        (#""width": 1, "sharpen": 10.01"#, "variants.v.sharpen: expected number in 0…10, got 10.01"),
        (#""width": 1, "rotate": 45"#, "variants.v.rotate: expected multiple of 90 in -360…360, got 45"),
        (#""width": 1, "rotate": 450"#, "variants.v.rotate: expected multiple of 90 in -360…360, got 450"),
        (#""width": 1, "rotate": 90.5"#, "variants.v.rotate: expected multiple of 90 in -360…360, got 90.5"),
        (
            #""width": 1, "rotate": "90""#,
            #"variants.v.rotate: expected multiple of 90 in -360…360, got "90""#
        ),
        (##""width": 1, "background": "#ff""##, backgroundRule + ##", got "#ff""##),
        (#""width": 1, "background": "red""#, backgroundRule + #", got "red""#),
        (##""width": 1, "background": "#gggggg""##, backgroundRule + ##", got "#gggggg""##),
        (##""width": 1, "background": "#ｆｆｆ""##, backgroundRule + ##", got "#ｆｆｆ""##),
        (#""width": 1, "background": [1, 2]"#, backgroundRule + ", got [1,2]"),
        (#""width": 1, "background": [1, 2, 3, 4, 5]"#, backgroundRule + ", got [1,2,3,4,5]"),
        (#""width": 1, "background": [1, 2, 3, 4, 500]"#, backgroundRule + ", got [1,2,3,4,500]"),
        (#""width": 1, "background": 255"#, backgroundRule + ", got 255"),
        (
            #""width": 1, "background": [256, 0, 0]"#,
            "variants.v.background[0]: expected integer in 0…255, got 256"
        ),
        (
            #""width": 1, "background": [0, 0, -1]"#,
            "variants.v.background[2]: expected integer in 0…255, got -1"
        ),
        (
            #""width": 1, "withoutEnlargement": "yes""#,
            #"variants.v.withoutEnlargement: expected true or false, got "yes""#
        ),
        (
            ##""width": 1, "colour": "#fff""##,
            "variants.v.colour: expected one of the keys \(variantKeys), got unknown key"
        ),
        (#""width": 1, "width": 2"#, #"variants.v.width: expected each key once, got a second "width""#),
    ]

    @Test(arguments: invalidSettings)
    func rejectsVariantSetting(settings: String, message: String) {
        #expect(failure(bucket(variant: settings)) == VariantsError(.invalidTransform, message))
    }

    static let variantKeys =
        "width, height, fit, position, format, quality, blur, sharpen, rotate, background, withoutEnlargement, animated, "
        + "progressive, effort, dpr, flip, focus, trim, metadata, watermark"

    static let backgroundRule =
        "variants.v.background: expected colour as #rgb, #rrggbb, #rrggbbaa, [r, g, b] or [r, g, b, a]"

    @Test(arguments: [
        (#""width": 4096"#, 4096), (#""width": 4097"#, 4096), (#""width": 5000"#, 4096),
        (#""width": 1e9"#, 4096), (#""width": 99999999999999999999"#, 4096), (#""width": 1"#, 1),
        (#""width": 2.0"#, 2), (#""width": 2e2"#, 200),
    ])
    func clampsOrReadsWidth(settings: String, width: Int) throws {
        #expect(try variant(settings).width == width)
    }

    @Test func clampsHeightToo() throws {
        #expect(try variant(#""height": 10000"#).height == 4096)
    }

    @Test func fillsDefaults() throws {
        let boxed = try variant(#""width": 200, "height": 100"#)
        #expect(boxed.fit == .cover)
        #expect(boxed.position == .centre)
        #expect(boxed.format == .jpeg)
        #expect(boxed.quality == nil)
        #expect(boxed.blur == 0)
        #expect(boxed.sharpen == 0)
        #expect(boxed.rotation == .d0)
        #expect(boxed.background == .white)
        #expect(boxed.withoutEnlargement)
        #expect(try variant(#""width": 200"#).fit == .inside)
        #expect(try variant(#""height": 200"#).fit == .inside)
        #expect(try variant(#""width": 200, "fit": "cover""#).fit == .cover)
    }

    @Test func readsEverySetting() throws {
        let spec = try variant(
            #""width": 64, "height": 32, "fit": "contain", "position": "southwest", "format": "avif", "#
                + ##""quality": 55, "blur": 2.5, "sharpen": 1, "rotate": -90, "background": "#33669980", "##
                + #""withoutEnlargement": false"#)
        let expected = VariantSpec(
            name: "v", width: 64, height: 32, fit: .contain, position: .southwest, format: .avif, quality: 55,
            blur: 2.5, sharpen: 1, rotation: .d270,
            background: Colour(red: 0x33, green: 0x66, blue: 0x99, alpha: 0x80),
            withoutEnlargement: false)
        #expect(spec == expected)
    }

    @Test(arguments: Position.allCases)
    func readsPosition(position: Position) throws {
        #expect(try variant(#""width": 1, "position": "\#(position.rawValue)""#).position == position)
    }

    @Test func acceptsCenterAsASpellingOfCentre() throws {
        #expect(try variant(#""width": 1, "position": "center""#).position == .centre)
    }

    @Test(arguments: [
        (0, Rotation.d0), (90, .d90), (180, .d180), (270, .d270), (360, .d0), (-90, .d270), (-180, .d180),
        (-270, .d90), (-360, .d0),
    ])
    func normalisesRotation(degrees: Int, rotation: Rotation) throws {
        #expect(try variant(#""width": 1, "rotate": \#(degrees)"#).rotation == rotation)
    }

    @Test(arguments: [
        (##""#fff""##, Colour(red: 255, green: 255, blue: 255)),
        (##""#0a9""##, Colour(red: 0x00, green: 0xAA, blue: 0x99)),
        (##""#336699""##, Colour(red: 0x33, green: 0x66, blue: 0x99)),
        (##""#ABCDEF""##, Colour(red: 0xAB, green: 0xCD, blue: 0xEF)),
        (##""#33669900""##, Colour(red: 0x33, green: 0x66, blue: 0x99, alpha: 0)),
        ("[1, 2, 3]", Colour(red: 1, green: 2, blue: 3)),
        ("[1, 2, 3, 4]", Colour(red: 1, green: 2, blue: 3, alpha: 4)),
    ])
    func readsBackground(json: String, colour: Colour) throws {
        #expect(try variant(#""width": 1, "background": \#(json)"#).background == colour)
    }

    @Test func negativeZeroReadsAsZero() throws {
        let spec = try variant(#""width": 1, "blur": -0.0"#)
        #expect(spec.blur == 0 && spec.blur.sign == .plus)
    }

    // MARK: - Variant names and count

    @Test(arguments: ["bad name", "", "a.b", "thümb", "x/y", String(repeating: "a", count: 65)])
    func rejectsVariantName(name: String) {
        let json = #"{"name": "b", "variants": {\#(JSONValue.quote(name)): {"width": 1}}}"#
        let message =
            "variants: expected variant name of 1…64 characters from A-Z a-z 0-9 _ -, got "
            + JSONValue.quote(name)
        #expect(failure(json) == VariantsError(.invalidTransform, message))
    }

    @Test(arguments: ["A", "thumb_2x", "Large-WebP", String(repeating: "z", count: 64)])
    func acceptsVariantName(name: String) throws {
        let json = #"{"name": "b", "variants": {"\#(name)": {"width": 1}}}"#
        #expect(try BucketDeclaration(parsing: json.utf8).variant(named: name)?.name == name)
    }

    @Test func acceptsFiftyVariantsAndRefusesFiftyOne() throws {
        func declaration(count: Int) -> String {
            let variants = (0..<count).map { #""v\#($0)": {"width": \#($0 + 1)}"# }.joined(separator: ",")
            return #"{"name": "b", "variants": {\#(variants)}}"#
        }
        #expect(try BucketDeclaration(parsing: declaration(count: 50).utf8).variants.count == 50)
        let error = failure(declaration(count: 51))
        #expect(error == VariantsError(.tooManyVariants, "variants: expected at most 50 variants, got 51"))
        #expect(error?.statusCode == 429)
    }

    @Test func sortsVariantsByNameAndLooksThemUp() throws {
        let json = #"{"name": "b", "variants": {"m": {"width": 2}, "a": {"width": 1}, "z": {"width": 3}}}"#
        let spec = try BucketDeclaration(parsing: json.utf8)
        #expect(spec.variants.map(\.name) == ["a", "m", "z"])
        #expect(spec.variant(named: "m")?.width == 2)
        #expect(spec.variant(named: "M") == nil)
    }

    // MARK: - Bucket fields

    static let bucketNameRule =
        "bucket name of 1…63 characters from a-z 0-9 . _ -, starting with a letter or digit, without .."

    @Test(arguments: [
        #""Post""#, #""..""#, #""a..b""#, #"".hidden""#, #""-rf""#, #""""#, #""a/b""#, #""é""#, "123",
        "\"" + String(repeating: "a", count: 64) + "\"",
    ])
    func rejectsBucketName(json: String) {
        let message = "name: expected \(Self.bucketNameRule), got \(json)"
        let expected = json == "123" ? "name: expected string, got 123" : message
        #expect(failure(#"{"name": \#(json)}"#) == VariantsError(.invalidTransform, expected))
    }

    @Test(arguments: ["post-images", "a", "0", "v1.2_x", String(repeating: "a", count: 63)])
    func acceptsBucketName(name: String) throws {
        #expect(try BucketDeclaration(parsing: #"{"name": "\#(name)"}"#.utf8).name == name)
    }

    @Test func requiresName() {
        let message = "name: expected \(Self.bucketNameRule), got nothing"
        #expect(failure(#"{"variants": {}}"#) == VariantsError(.invalidTransform, message))
    }

    @Test(arguments: ["0", "-1", "1.5", #""10MB""#, "true"])
    func rejectsFileSizeLimit(json: String) {
        let message = "fileSizeLimit: expected integer ≥ 1, got \(json)"
        #expect(
            failure(#"{"name": "b", "fileSizeLimit": \#(json)}"#) == VariantsError(.invalidTransform, message)
        )
    }

    @Test func readsOptionalFieldsAndTreatsNullAsAbsent() throws {
        let full = try BucketDeclaration(parsing: #"{"name": "b", "fileSizeLimit": 9007199254740993}"#.utf8)
        #expect(full.fileSizeLimit == 9_007_199_254_740_993)
        let nulls = #"{"name": "b", "fileSizeLimit": null, "allowedMimeTypes": null, "variants": null}"#
        let spec = try BucketDeclaration(parsing: nulls.utf8)
        #expect(spec == BucketDeclaration(name: "b", fileSizeLimit: nil, allowedMimeTypes: [], variants: []))
        #expect(!spec.isPublic && !spec.blockExecutables && !spec.policy.blockExecutables)
        #expect(try BucketDeclaration(parsing: #"{"name": "b", "public": true}"#.utf8).isPublic)
        let blocking = try BucketDeclaration(parsing: #"{"name": "b", "blockExecutables": true}"#.utf8)
        #expect(blocking.blockExecutables && blocking.policy.blockExecutables)
        let open = try BucketDeclaration(parsing: #"{"name": "b", "blockExecutables": false}"#.utf8)
        #expect(!open.policy.blockExecutables)
    }

    @Test(arguments: [
        ("*/*", MimePattern.any), ("image/*", .anySubtype(of: "image")), ("image/png", .exact("image/png")),
        ("IMAGE/PNG", .exact("image/png")), ("application/vnd.api+json", .exact("application/vnd.api+json")),
    ])
    func readsMimePattern(text: String, pattern: MimePattern) throws {
        let spec = try BucketDeclaration(parsing: #"{"name": "b", "allowedMimeTypes": ["\#(text)"]}"#.utf8)
        #expect(spec.allowedMimeTypes == [pattern])
    }

    @Test(arguments: [
        #""image""#, #""*/png""#, #""image/""#, #""/png""#, #""image/png/x""#, #""im age/png""#, "1",
    ])
    func rejectsMimePattern(json: String) {
        let message =
            json == "1"
            ? "allowedMimeTypes[1]: expected string, got 1"
            : "allowedMimeTypes[1]: expected media type such as image/png, image/* or */*, got \(json)"
        let declaration = #"{"name": "b", "allowedMimeTypes": ["image/png", \#(json)]}"#
        #expect(failure(declaration) == VariantsError(.invalidTransform, message))
    }

    @Test func rejectsMimeTypesThatAreNotAList() {
        let message = #"allowedMimeTypes: expected array, got "image/*""#
        #expect(
            failure(#"{"name": "b", "allowedMimeTypes": "image/*"}"#)
                == VariantsError(.invalidTransform, message))
    }

    @Test(arguments: [
        ([String](), "text/plain", true),
        (["image/*"], "image/png", true),
        (["image/*"], "Image/PNG; charset=binary", true),
        (["image/*"], " image/webp ", true),
        (["image/*"], "video/mp4", false),
        (["image/*"], "imagex/png", false),
        (["image/png", "image/jpeg"], "image/jpeg", true),
        (["image/png", "image/jpeg"], "image/webp", false),
        (["image/png"], "image/png2", false),
        (["*/*"], "application/octet-stream", true),
    ])
    func allowsContentType(patterns: [String], contentType: String, allowed: Bool) throws {
        let list = patterns.map { #""\#($0)""# }.joined(separator: ",")
        let spec = try BucketDeclaration(parsing: #"{"name": "b", "allowedMimeTypes": [\#(list)]}"#.utf8)
        #expect(spec.policy.allows(contentType: contentType) == allowed)
    }

    // MARK: - Document shape

    @Test(arguments: [
        ("[]", "declaration: expected object, got []"),
        ("", "declaration: expected JSON, got end of input at byte 0"),
        (#"{"name": "b",}"#, #"declaration: expected JSON, got "}" at byte 13"#),
        (#"{"name": "b"} x"#, #"declaration: expected JSON, got "x" at byte 14"#),
        (#"{"name": 'b'}"#, #"declaration: expected JSON, got "'" at byte 9"#),
        (#"{"name": "\ud800"}"#, "declaration: expected JSON, got unpaired surrogate at byte 10"),
        (#"{"name": "\ud800\u0041"}"#, "declaration: expected JSON, got unpaired surrogate at byte 10"),
        (#"{"name": "\udc00"}"#, "declaration: expected JSON, got unpaired surrogate at byte 10"),
        ("{\"name\": \"\u{1}\"}", "declaration: expected JSON, got byte 1 at byte 10"),
        (#"{"name": 01}"#, #"declaration: expected JSON, got "1" at byte 10"#),
        (
            String(repeating: "[", count: 40),
            "declaration: expected JSON, got nesting deeper than 32 at byte 32"
        ),
        (
            #"{"name": "b", "private": true}"#,
            "private: expected one of the keys name, public, account, fileSizeLimit, allowedMimeTypes, blockExecutables, "
                + "variants, transforms, widths, watermarks, got unknown key"
        ),
        (
            #"{"name": "b", "public": "yes"}"#,
            #"public: expected true or false, got "yes""#
        ),
        (
            #"{"name": "b", "blockExecutables": 1}"#,
            "blockExecutables: expected true or false, got 1"
        ),
        (#"{"name": "b", "name": "c"}"#, #"name: expected each key once, got a second "name""#),
        (#"{"name": "b", "variants": []}"#, "variants: expected object, got []"),
        (#"{"name": "b", "variants": {"v": 5}}"#, "variants.v: expected object, got 5"),
    ])
    func rejectsDocument(json: String, message: String) {
        #expect(failure(json) == VariantsError(.invalidTransform, message))
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = Array(#"{"name": ""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(
            throws: VariantsError(
                .invalidTransform, "declaration: expected JSON, got invalid UTF-8 at byte 9")
        ) {
            try BucketDeclaration(parsing: bytes)
        }
    }

    @Test func readsEscapesInStrings() throws {
        let json = #"{"name": "b", "variants": {"\u0074h\u0075mb": {"width": 1, "background": "\u0023fff"}}}"#
        #expect(try BucketDeclaration(parsing: json.utf8).variant(named: "thumb")?.background == .white)
        let emoji = failure(bucket(variant: #""width": 1, "fit": "\ud83d\ude00""#))?.message
        #expect(emoji == #"variants.v.fit: expected one of cover, contain, fill, inside, outside, got "😀""#)
    }

    @Test func quotesLongValuesShortened() {
        let long = String(repeating: "x", count: 100)
        let message =
            #"variants.v.fit: expected one of cover, contain, fill, inside, outside, got "# + "\""
            + String(repeating: "x", count: 78) + "…"
        #expect(
            failure(bucket(variant: #""width": 1, "fit": "\#(long)""#))
                == VariantsError(.invalidTransform, message))
    }

    // MARK: - Samples

    @Test func parsesPostImagesSample() throws {
        let spec = try BucketDeclaration(parsing: Samples.bucket("post-images.json"))
        #expect(spec.name == "post-images")
        #expect(spec.fileSizeLimit == 10_485_760)
        #expect(spec.allowedMimeTypes == [.anySubtype(of: "image")])
        #expect(
            spec.variants == [
                VariantSpec(
                    name: "large", width: 1600, height: 1600, fit: .inside, format: .jpeg, quality: 82),
                VariantSpec(name: "medium", width: 600, height: nil, fit: .inside, format: .webp),
                VariantSpec(name: "thumb", width: 200, height: 200, fit: .cover, format: .webp, quality: 75),
            ])
    }

    @Test func defaultBucketIsThePostImagesSample() throws {
        let sample = try Samples.bucket("post-images.json")
        #expect(BucketDeclaration.default == (try BucketDeclaration(parsing: sample)))
        #expect(Data(BucketDeclaration.defaultDeclaration.utf8) == sample)
    }

    @Test func parsesEverythingSampleCoveringEverySetting() throws {
        let spec = try BucketDeclaration(parsing: Samples.bucket("everything.json"))
        #expect(spec.variants.count <= 10)
        #expect(spec.blockExecutables)
        #expect(Set(spec.variants.map(\.fit)) == Set(Fit.allCases))
        #expect(Set(spec.variants.map(\.format)) == Set(OutputFormat.allCases))
        #expect(
            Set(spec.variants.filter { $0.fit == .cover }.map(\.position)).isSuperset(of: [
                .entropy, .attention,
            ]))
        #expect(spec.variants.contains { $0.fit == .cover && $0.position == .north })
        #expect(spec.variants.contains { $0.fit == .contain && $0.background != .white })
        #expect(spec.variants.contains { $0.blur > 0 })
        #expect(spec.variants.contains { $0.sharpen > 0 })
        #expect(Set(spec.variants.map(\.rotation)).isSuperset(of: [.d90, .d270]))
        #expect(spec.variants.contains { $0.width == nil } && spec.variants.contains { $0.height == nil })
        #expect(spec.variants.contains { !$0.withoutEnlargement })
    }

    @Test(arguments: [
        (
            "quality-zero.json",
            VariantsError(.invalidTransform, "variants.thumb.quality: expected integer in 1…100, got 0")
        ),
        (
            "unknown-key.json",
            VariantsError(
                .invalidTransform,
                "variants.thumb.colour: expected one of the keys \(variantKeys), got unknown key")
        ),
        (
            "not-json.json",
            VariantsError(.invalidTransform, #"declaration: expected JSON, got "}" at byte 61"#)
        ),
        (
            "too-many-variants.json",
            VariantsError(.tooManyVariants, "variants: expected at most 50 variants, got 51")
        ),
    ])
    func rejectsInvalidSample(file: String, error: VariantsError) throws {
        let bytes = try Samples.bucket("invalid/" + file)
        #expect(throws: error) { try BucketDeclaration(parsing: bytes) }
    }

    // MARK: - Inline declarations

    @Test func inlineMemberIsReadWithTheDeclarationRules() throws {
        let body = #"{"id": "1", "bucketPolicy": {"name": "b", "variants": {"v": {"width": 10}}}}"#
        let bucket = try #require(try BucketDeclaration.inline(member: "bucketPolicy", of: body.utf8))
        #expect(bucket.name == "b" && bucket.variant(named: "v")?.width == 10)
        #expect(try BucketDeclaration.inline(member: "bucketPolicy", of: #"{"id": "1"}"#.utf8) == nil)
        #expect(
            try BucketDeclaration.inline(member: "bucketPolicy", of: #"{"bucketPolicy": null}"#.utf8) == nil)
    }

    @Test func inlineMemberRefusesAKeyGivenTwice() {
        let inside = #"{"bucketPolicy": {"name": "b", "variants": {"v": {"width": 10, "width": 20}}}}"#
        #expect(
            throws: VariantsError.invalidTransform(
                path: "bucketPolicy.variants.v.width", expected: "each key once", got: #"a second "width""#)
        ) { try BucketDeclaration.inline(member: "bucketPolicy", of: inside.utf8) }

        let outside = #"{"id": "1", "id": "2"}"#
        #expect(throws: VariantsError(.invalidRequest, "id: a key given twice")) {
            try BucketDeclaration.inline(member: "bucketPolicy", of: outside.utf8)
        }
    }
}
