extension DeclarationField {
    /// The value `decoder` holds, read by `read` under the rules a declaration is read by, so a value from a
    /// decoder child's job line is one a declaration could hold. A rule it breaks is a `DecodingError`, as any
    /// other malformed part of the line is, naming the field (`outputs.0.spec.quality: expected …`).
    static func decoding<Value>(
        _ decoder: any Decoder, _ read: (DeclarationField) throws(VariantsError) -> Value
    ) throws -> Value {
        let path = decoder.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        let field = DeclarationField(path: path.joined(separator: "."), value: try JSONValue(from: decoder))
        do {
            return try read(field)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }
}
