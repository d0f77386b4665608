@testable import Variants

extension BucketDeclaration {
    /// A declaration in which every setting is away from its default in some variant, so that a setting
    /// added later and forgotten by a written form fails a round trip.
    static let everySetting = #"""
        {"name": "b", "account": "acme", "fileSizeLimit": 7, "allowedMimeTypes": ["image/png", "video/*"],
         "blockExecutables": true,
         "variants": {
          "a": {"width": 5000, "height": 10, "fit": "contain", "background": [1, 2, 3, 4], "format": "original",
                "progressive": true},
          "b": {"height": 33, "position": "attention", "rotate": -90, "blur": 0.5, "sharpen": 2,
                "withoutEnlargement": false, "quality": 41, "format": "avif"},
          "c": {"width": 20, "format": "webp", "animated": false, "quality": {"ssimulacra2": 70}, "effort": 6,
                "metadata": "copyright"}}}
        """#

    /// The settings of `VariantSpec` that no variant of `everySetting` moves from its default.
    static var settingsLeftAtDefault: [String] {
        let bucket = try! BucketDeclaration(parsing: everySetting.utf8)
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
