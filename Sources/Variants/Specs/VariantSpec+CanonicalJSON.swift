extension VariantSpec {
    /// The variant's effective settings as sorted-key, whitespace-free JSON, without its name.
    ///
    /// The store keys renditions by a hash of this text, so it must change exactly when the rendering
    /// would: defaults are filled in (`quality` for a fixed format, `fit`, `position`), equivalent spellings
    /// collapse (`center`, `#fff`, `-90`, a clamped `5000`), and settings that cannot affect the output are
    /// left out: `animated`, `progressive`, `effort`, `metadata` and `quality` unless an encoder that may write the
    /// rendition reads them (`FormatFacts.Encoder`: WebP's animation and effort, JPEG's scans, every lossy
    /// format's quality, the kept metadata of those that write it; `animated` only when a still is asked for), `fit` when one side is declared,
    /// `position` unless cropping by `cover`, `background` unless letterboxing or possibly flattening into a
    /// format without alpha. `effort` at its default is left out too, so that a declared 4 keys as an
    /// undeclared one, and so is `metadata: "none"`, so that the keys made before it existed stand. A quality
    /// target keys as `{"ssimulacra2":N}`, never as any fixed quality. An undeclared side is `null`. A `flip`
    /// keys with `rotate` as the orientation they make together (a half turn and `h` for `v`, a half turn for
    /// `hv`), `focus` in place of `position`, `trim` when set; `dpr` is already in the sides. A watermark keys
    /// by its settings and its file's checksum, not its name.
    public var canonicalJSON: String {
        let boxed = width != nil && height != nil
        let orientation = rotation.followed(by: flip)
        var members: [(String, String)] = [
            ("blur", Self.canonicalNumber(blur)),
            ("format", JSONValue.quote(format.rawValue)),
            ("height", height.map(String.init) ?? "null"),
            ("rotate", String(orientation.rotation.rawValue)),
            ("sharpen", Self.canonicalNumber(sharpen)),
            ("width", width.map(String.init) ?? "null"),
            ("withoutEnlargement", String(withoutEnlargement)),
        ]
        if boxed {
            members.append(("fit", JSONValue.quote(fit.rawValue)))
        }
        if boxed && fit == .cover {
            members.append(
                focus.map { ("focus", $0.json) } ?? ("position", JSONValue.quote(position.rawValue)))
        }
        if orientation.mirrored {
            members.append(("flip", JSONValue.quote(Flip.h.rawValue)))
        }
        if let trim {
            members.append(("trim", String(trim)))
        }
        // `original` may be written in any type, so a setting any type's encoder reads counts.
        let writers = format.writers
        if (boxed && fit == .contain) || writers.contains(where: { !$0.alpha }) {
            members.append(("background", JSONValue.quote(background.hexString)))
        }
        if !animated && writers.contains(where: \.animates) {
            members.append(("animated", "false"))
        }
        if writesProgressive && writers.contains(where: { $0.encoder?.progressive == true }) {
            members.append(("progressive", "true"))
        }
        if metadata != .none && writers.contains(where: { $0.encoder?.keepsRights == true }) {
            members.append(("metadata", JSONValue.quote(metadata.rawValue)))
        }
        if let watermark {
            members.append(("watermark", watermark.canonicalJSON))
        }
        if webpEffort != Self.defaultEffort && writers.contains(where: { $0.encoder?.effort == true }) {
            members.append(("effort", String(webpEffort)))
        }
        // A lossless encoder has no default quality, and takes none.
        let takesQuality = writers.contains { $0.encoder?.defaultQuality != nil }
        if let qualityTarget, takesQuality {
            // A target reads as the score it resolves to, so `"auto"` and its score spelled out share a key;
            // only `original` keeps `"auto"`, its format being the source's.
            let score = qualityTarget.score(in: format)
            members.append(
                ("quality", (score.map { QualityTarget.ssimulacra2($0) } ?? qualityTarget).declarationJSON))
        } else if let quality = quality ?? format.defaultQuality, takesQuality {
            members.append(("quality", String(quality)))
        }
        let sorted = members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        return "{" + sorted.map { JSONValue.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// Whole numbers without a fraction (`2`, not `2.0`); others in Swift's shortest round-tripping form.
    static func canonicalNumber(_ value: Double) -> String {
        value.rounded(.towardZero) == value ? String(Int(value)) : String(value)
    }
}
