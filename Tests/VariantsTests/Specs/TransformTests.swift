import Testing

@testable import Variants

/// The query options of an on-demand transform: the declaration's rules, one canonical key per rendering.
@Suite struct TransformTests {
    private func query(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    private func key(_ text: String, accept: String? = nil) throws -> String {
        RenditionKey.specKey(of: try Transform(query: query(text), accept: accept).spec)
    }

    @Test(arguments: [
        ("width=600&format=webp", "format=webp&width=600.0"),
        ("width=200&height=200&position=center", "height=200&position=centre&width=2e2&fit=cover"),
        ("width=300&rotate=-90", "rotate=270&width=300&format=jpeg"),
        ("width=5000", "width=4096"),
        ("width=100&background=#fff", "background=[255,255,255]&width=100"),
        ("width=100&format=png&quality=10", "width=100&format=png"),
        ("format=webp", "format=webp&width=4096&height=4096&fit=inside"),
        ("width=100&format=auto", "width=100&format=avif"),
        ("width=100&metadata=none", "width=100"),
        ("width=100&metadata=copyright", #"metadata="copyright"&width=100"#),
        ("width=100&format=png&metadata=copyright", "width=100&format=png"),
    ])
    func equalRenderingsShareOneKey(first: String, second: String) throws {
        #expect(try key(first, accept: "image/avif") == key(second, accept: "image/avif"))
    }

    @Test func differentRenderingsGetDifferentKeys() throws {
        #expect(try key("width=100") != key("width=101"))
        #expect(try key("width=100&format=webp") != key("width=100"))
        #expect(try key("width=100&height=100&fit=cover") != key("width=100&height=100&fit=contain"))
        #expect(try key("width=100&metadata=copyright") != key("width=100"))
    }

    @Test(arguments: [
        ("quality=0&width=10", "quality: expected integer in 1…100, got 0"),
        ("width=-5", "width: expected integer ≥ 1, got -5"),
        ("width=ten", #"width: expected integer ≥ 1, got "ten""#),
        ("width=null", #"width: expected integer ≥ 1, got "null""#),
        (
            "width=10&fit=stretch",
            #"fit: expected one of cover, contain, fill, inside, outside, got "stretch""#
        ),
        ("width=10&rotate=45", "rotate: expected multiple of 90 in -360…360, got 45"),
        ("width=10&metadata=all", #"metadata: expected one of none, copyright, got "all""#),
        ("width=10&width=20", #"width: expected each key once, got a second "width""#),
        ("width=10&format=gif", #"format: expected one of jpeg, png, webp, avif, original, got "gif""#),
        (
            "width=10&colour=red",
            "colour: expected one of the keys width, height, fit, position, format, quality, blur, sharpen, "
                + "rotate, background, withoutEnlargement, animated, progressive, effort, metadata, watermark, got unknown key"
        ),
    ])
    func refusesNamingTheParameter(text: String, message: String) {
        #expect(throws: VariantsError(.invalidTransform, message)) {
            try Transform(query: query(text), accept: nil)
        }
    }

    @Test func neitherSideKeepsTheOwnSizeUnderTheClamp() throws {
        let spec = try Transform(query: query("format=png&withoutEnlargement=false"), accept: nil).spec
        #expect(spec.width == 4096 && spec.height == 4096 && spec.fit == .inside && spec.withoutEnlargement)
        let plan = RenderPlan(
            sourceWidth: 320, sourceHeight: 200, spec: spec, sourceHasAlpha: false, sourceFormat: .jpeg)
        #expect(plan.outputWidth == 320 && plan.outputHeight == 200)
        #expect(try Transform(query: [], accept: nil).spec.format == .jpeg)
    }

    @Test(arguments: [
        (String?("image/avif,image/webp,*/*"), OutputFormat.avif), ("image/webp,*/*;q=0.8", .webp),
        ("image/avif;q=0, image/webp", .webp), ("*/*", .jpeg), ("image/*", .jpeg), (nil, .jpeg),
    ])
    func automaticFormatFollowsAccept(accept: String?, format: OutputFormat) throws {
        let transform = try Transform(query: query("width=10&format=auto"), accept: accept)
        #expect(transform.spec.format == format && transform.variesWithAccept)
        #expect(try !Transform(query: query("width=10&format=webp"), accept: accept).variesWithAccept)
    }

    @Test func jsonObjectReadsLikeTheQuery() throws {
        let body = #"{"path": "a", "transforms": {"format": "webp", "width": 600}}"#
        let json = try #require(try Transform.inline(member: "transforms", of: body.utf8))
        #expect(RenditionKey.specKey(of: json.spec) == (try key("width=600&format=webp")))
        #expect(throws: VariantsError(.invalidTransform, "transforms: expected object, got []")) {
            try Transform.inline(member: "transforms", of: #"{"transforms": []}"#.utf8)
        }
        #expect(throws: VariantsError(.invalidTransform, "transforms.width: expected integer ≥ 1, got 0")) {
            try Transform.inline(member: "transforms", of: #"{"transforms": {"width": 0}}"#.utf8)
        }
        #expect(try Transform.inline(member: "transforms", of: #"{"transforms": null}"#.utf8) == nil)
    }
}
