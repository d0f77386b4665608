/// A bucket crosses process boundaries (the decoder child's job line) as its declaration text, every
/// setting spelled out, and is read back by `BucketSpec(parsing:)`: the one parser, so even a value from a
/// pipe cannot hold a bad setting.
extension BucketSpec: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text.utf8)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(declarationJSON)
    }

    /// The declaration as compact JSON with every setting written out; parsing it gives an equal value.
    public var declarationJSON: String {
        var members = [JSONValue.quote("name") + ":" + JSONValue.quote(name)]
        if isPublic {
            members.append(#""public":true"#)
        }
        if let fileSizeLimit {
            members.append(#""fileSizeLimit":"# + String(fileSizeLimit))
        }
        let types = allowedMimeTypes.map { JSONValue.quote($0.description) }
        members.append(#""allowedMimeTypes":["# + types.joined(separator: ",") + "]")
        let variants = variants.map { JSONValue.quote($0.name) + ":" + $0.declarationJSON }
        members.append(#""variants":{"# + variants.joined(separator: ",") + "}")
        return "{" + members.joined(separator: ",") + "}"
    }
}

extension VariantSpec {
    /// The variant's settings as declaration JSON, every one written out.
    var declarationJSON: String {
        var members: [(String, String)] = [
            ("width", width.map(String.init) ?? "null"),
            ("height", height.map(String.init) ?? "null"),
            ("fit", JSONValue.quote(fit.rawValue)),
            ("position", JSONValue.quote(position.rawValue)),
            ("format", JSONValue.quote(format.rawValue)),
            ("blur", Self.canonicalNumber(blur)),
            ("sharpen", Self.canonicalNumber(sharpen)),
            ("rotate", String(rotation.rawValue)),
            ("background", JSONValue.quote(background.hexString)),
            ("withoutEnlargement", String(withoutEnlargement)),
            ("animated", String(animated)),
            ("progressive", String(progressive)),
        ]
        if let quality {
            members.append(("quality", String(quality)))
        }
        if let qualityTarget {
            members.append(("quality", qualityTarget.declarationJSON))
        }
        return "{" + members.map { JSONValue.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
