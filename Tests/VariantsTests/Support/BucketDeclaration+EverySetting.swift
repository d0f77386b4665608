@testable import Variants

extension BucketDeclaration {
    /// A declaration in which every setting is away from its default in some variant, so that a setting
    /// added later and forgotten by a written form fails a round trip.
    static let everySetting = #"""
        {"name": "b", "account": "acme", "fileSizeLimit": 7, "allowedMimeTypes": ["image/png", "video/*"],
         "blockExecutables": true,
         "watermarks": {"logo": {"file": "logo.png", "position": "northwest", "margin": 3, "opacity": 0.25,
                                 "width": 0.5}},
         "variants": {
          "a": {"width": 5000, "height": 10, "fit": "contain", "background": [1, 2, 3, 4], "format": "original",
                "progressive": true, "watermark": "logo"},
          "b": {"height": 33, "position": "attention", "rotate": -90, "flip": "v", "trim": 12, "blur": 0.5, "sharpen": 2,
                "withoutEnlargement": false, "quality": 41, "format": "avif"},
          "c": {"width": 20, "height": 9, "focus": [0.25, 1], "dpr": 1.5, "format": "webp", "animated": false, "quality": {"ssimulacra2": 70}, "effort": 6,
                "metadata": "copyright"}}}
        """#

    /// `everySetting` parsed, its watermark a small red square.
    static func parsingEverySetting(_ text: String = everySetting) throws -> BucketDeclaration {
        try BucketDeclaration(parsing: text.utf8, readFile: testFiles)
    }

    /// The files a test declaration's watermarks name: `logo.png`, an 8×8 opaque red square, and
    /// `other.png`, a translucent green one.
    static func testFiles(_ file: String) throws(VariantsError) -> [UInt8] {
        switch file {
        case "logo.png": return SolidPNG.make(width: 8, height: 8, rgba: [255, 0, 0, 255])
        case "other.png": return SolidPNG.make(width: 8, height: 8, rgba: [0, 255, 0, 128])
        default: throw VariantsError(.invalidTransform, "no such file")
        }
    }

    /// The settings of `VariantSpec` that no variant of `everySetting` moves from its default.
    static var settingsLeftAtDefault: [String] {
        let bucket = try! parsingEverySetting()
        let defaults = VariantSpec(name: "d", width: 1, height: nil)
        func value(_ spec: VariantSpec, _ setting: String) -> String? {
            Mirror(reflecting: spec).children.first { $0.label == setting }.map { "\($0.value)" }
        }
        let settings = Mirror(reflecting: defaults).children.compactMap(\.label).filter { $0 != "name" }
        return settings.filter { setting in
            !bucket.variants.contains { value($0, setting) != value(defaults, setting) }
        }
    }
}
