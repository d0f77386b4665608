import Variants

/// Request bodies refuse keys they do not know, so a misspelt field is an error instead of a silent default.
extension Decoder {
    func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type, in subject: String) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        if let unknown = try container(keyedBy: AnyKey.self).allKeys.first(where: {
            !known.contains($0.stringValue)
        }) {
            throw VariantsError(.invalidRequest, "unknown key '\(unknown.stringValue)' in the \(subject)")
        }
    }
}

/// Any key of a JSON object, to list the keys a body actually has.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
