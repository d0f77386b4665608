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
        ("width=300&height=100&dpr=2", "width=600&height=200"),
        ("width=201&dpr=1.50", "width=302&dpr=1"),
        ("width=3000&dpr=2", "width=4096"),
        ("format=png&dpr=3", "format=png"),
        ("width=10&flip=hv", "width=10&rotate=180"),
        ("width=10&flip=vh&rotate=90", "width=10&rotate=-90"),
        ("width=10&flip=v", "width=10&flip=h&rotate=180"),
        ("width=10&flip=v&rotate=270", "width=10&flip=h&rotate=90"),
        ("width=10&height=10&focus=0.5,0.25", "width=10&height=10&focus=[0.50,2.5e-1]"),
        ("width=10&focus=0.5,0.25", "width=10"),
        ("width=10&height=10&fit=contain&focus=0.1,0.1", "width=10&height=10&fit=contain"),
        ("width=10&trim=10", "trim=1e1&width=10.0"),
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
        #expect(try key("width=10&flip=h") != key("width=10"))
        #expect(try key("width=10&flip=h") != key("width=10&flip=v"))
        #expect(try key("width=10&height=10&focus=0.5,0.5") != key("width=10&height=10"))
        #expect(try key("width=10&height=10&focus=0.5,0.5") != key("width=10&height=10&focus=0.5,0.6"))
        #expect(try key("width=10&trim=10") != key("width=10"))
        #expect(try key("width=10&trim=10") != key("width=10&trim=11"))
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
                + "rotate, background, withoutEnlargement, animated, progressive, effort, dpr, flip, focus, trim, "
                + "metadata, watermark, got unknown key"
        ),
        ("width=10&dpr=5", "dpr: expected number in 1…4, got 5"),
        ("width=10&dpr=0.5", "dpr: expected number in 1…4, got 0.5"),
        ("width=10&flip=x", #"flip: expected one of h, v, hv, got "x""#),
        ("width=10&focus=0.5", "focus: expected focal point x,y of fractions in 0…1, got 0.5"),
        ("width=10&focus=0.5,1.5", #"focus: expected focal point x,y of fractions in 0…1, got "0.5,1.5""#),
        ("width=10&focus=a,b", #"focus: expected focal point x,y of fractions in 0…1, got "a,b""#),
        (
            "width=10&position=north&focus=0.5,0.5",
            "position: expected position or focus, not both, got both"
        ),
        ("width=10&trim=256", "trim: expected integer in 0…255, got 256"),
        ("width=10&trim=1.5", "trim: expected integer in 0…255, got 1.5"),
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

    @Test(arguments: [
        ("width=auto&dpr=auto", ClientHints(width: "600", devicePixelRatio: "2"), "width=600"),
        (
            "width=auto&height=100&dpr=auto", ClientHints(width: "600", devicePixelRatio: "2"),
            "width=600&height=200"
        ),
        ("width=auto&dpr=auto", ClientHints(viewportWidth: "300", devicePixelRatio: "2"), "width=600"),
        (
            "width=auto&height=50&dpr=auto", ClientHints(viewportWidth: "101", devicePixelRatio: "1.5"),
            "width=152&height=75"
        ),
        ("width=auto", ClientHints(width: "500", servedWidths: [200, 600, 1200]), "width=600"),
        ("width=auto", ClientHints(width: "600", servedWidths: [200, 600, 1200]), "width=600"),
        ("width=auto", ClientHints(width: "3000", servedWidths: [200, 600, 1200]), "width=1200"),
        (
            "width=auto&dpr=auto",
            ClientHints(viewportWidth: "150", devicePixelRatio: "2", servedWidths: [200, 600]),
            "width=600"
        ),
        ("width=auto", ClientHints(servedWidths: [200, 600, 1200]), "width=1200"),
        ("width=500", ClientHints(servedWidths: [200, 600, 1200]), "width=500"),
        ("width=auto&dpr=auto", ClientHints(width: "599.2", devicePixelRatio: "9"), "width=600"),
        ("width=300&dpr=auto", ClientHints(devicePixelRatio: "0.5"), "width=300"),
        ("width=300&dpr=auto", ClientHints(devicePixelRatio: "1.5"), "width=450"),
        ("width=auto&height=50", ClientHints(width: "garbage"), "height=50"),
        ("width=auto&dpr=auto", ClientHints(), "format=jpeg"),
        ("width=auto", ClientHints(width: "300", devicePixelRatio: "2"), "width=300"),
        ("width=300&format=webp", ClientHints(saveData: true), "width=300&format=webp&quality=60"),
        ("width=300&quality=15", ClientHints(saveData: true), "width=300&quality=1"),
        ("width=300&format=png", ClientHints(saveData: true), "width=300&format=png"),
        (
            "width=300&format=webp&quality=auto", ClientHints(saveData: true),
            "width=300&format=webp&quality={\"ssimulacra2\":65}"
        ),
    ])
    func hintsResolveToNumbers(text: String, hints: ClientHints, same: String) throws {
        let hinted = try Transform(query: query(text), accept: nil, hints: hints).spec
        #expect(RenditionKey.specKey(of: hinted) == (try key(same)), "\(hinted.canonicalJSON)")
    }

    @Test func hintsReadAreNamed() throws {
        #expect(
            try Transform(query: query("width=auto"), accept: nil).hintHeaders == ClientHints.widthHeaders)
        #expect(try Transform(query: query("dpr=auto&width=3"), accept: nil).hintHeaders == ["Sec-CH-DPR"])
        #expect(try Transform(query: query("dpr=2&width=3"), accept: nil).hintHeaders.isEmpty)
        #expect(throws: VariantsError(.invalidTransform, #"height: expected integer ≥ 1, got "auto""#)) {
            try Transform(query: query("height=auto"), accept: nil, hints: ClientHints(width: "5"))
        }
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
