/// A bucket written back as a declaration, every setting spelled out: what the quality benchmark hands
/// another tool, and what a test parses again to see that nothing is lost.
extension BucketDeclaration {
    /// The declaration as compact JSON with every setting written out; parsing it gives an equal value.
    public var declarationJSON: String {
        var members = [JSONValue.quote("name") + ":" + JSONValue.quote(name)]
        if isPublic {
            members.append(#""public":true"#)
        }
        if account != name {
            members.append(#""account":"# + JSONValue.quote(account))
        }
        if let fileSizeLimit {
            members.append(#""fileSizeLimit":"# + String(fileSizeLimit))
        }
        let types = allowedMimeTypes.map { JSONValue.quote($0.description) }
        members.append(#""allowedMimeTypes":["# + types.joined(separator: ",") + "]")
        if blockExecutables {
            members.append(#""blockExecutables":true"#)
        }
        if !watermarks.isEmpty {
            let declared = watermarks.map { JSONValue.quote($0.name) + ":" + $0.declarationJSON }
            members.append(#""watermarks":{"# + declared.joined(separator: ",") + "}")
        }
        let variants = variants.map { JSONValue.quote($0.name) + ":" + $0.declarationJSON }
        members.append(#""variants":{"# + variants.joined(separator: ",") + "}")
        switch transforms.rule {
        case .any: break
        case .declaredOnly: members.append(#""transforms":"declared""#)
        case .widths(let widths):
            members.append(#""widths":["# + widths.map(String.init).joined(separator: ",") + "]")
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}

extension VariantSpec {
    /// The variant's settings as declaration JSON, every one written out but an undeclared `progressive`,
    /// `effort`, `flip` or `trim`, whose absence is its own setting, and `metadata` at its default; `focus` in
    /// place of `position`.
    var declarationJSON: String {
        var members: [(String, String)] = [
            ("width", width.map(String.init) ?? "null"),
            ("height", height.map(String.init) ?? "null"),
            ("fit", JSONValue.quote(fit.rawValue)),
            focus.map { ("focus", $0.json) } ?? ("position", JSONValue.quote(position.rawValue)),
            ("format", JSONValue.quote(format.rawValue)),
            ("blur", Self.canonicalNumber(blur)),
            ("sharpen", Self.canonicalNumber(sharpen)),
            ("rotate", String(rotation.rawValue)),
            ("background", JSONValue.quote(background.hexString)),
            ("withoutEnlargement", String(withoutEnlargement)),
            ("animated", String(animated)),
        ]
        if let progressive {
            members.append(("progressive", String(progressive)))
        }
        if let effort {
            members.append(("effort", String(effort)))
        }
        if let flip {
            members.append(("flip", JSONValue.quote(flip.rawValue)))
        }
        if let trim {
            members.append(("trim", String(trim)))
        }
        if metadata != .none {
            members.append(("metadata", JSONValue.quote(metadata.rawValue)))
        }
        if let watermark {
            members.append(("watermark", JSONValue.quote(watermark.name)))
        }
        if let quality {
            members.append(("quality", String(quality)))
        }
        if let qualityTarget {
            members.append(("quality", qualityTarget.declarationJSON))
        }
        return "{" + members.map { JSONValue.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
