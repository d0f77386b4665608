/// A value of a decoder child's job line, taken as it stands so the declaration's field readers can hold it to
/// their rules (`DeclarationField.decoding`). A whole number keeps its digits; another number is written in
/// Swift's shortest form, which reads back as the same `Double`.
extension JSONValue: Decodable {
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }

        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? single.decode(Int.self) {
            self = .number(String(integer))
        } else if let number = try? single.decode(Double.self) {
            self = .number(String(number))
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if var elements = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !elements.isAtEnd { array.append(try elements.decode(JSONValue.self)) }
            self = .array(array)
        } else {
            let members = try decoder.container(keyedBy: MemberKey.self)
            self = .object(
                try members.allKeys.map { ($0.stringValue, try members.decode(JSONValue.self, forKey: $0)) })
        }
    }
}
