/// A JSON document as read from a bucket declaration, before any rule is applied.
///
/// Numbers keep their literal text, so an error can quote exactly what was written and integers are read
/// without a detour through `Double`. Object members keep their order and duplicates, so the field reader
/// can reject a key given twice instead of silently keeping one.
enum JSONValue {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The value as compact JSON, cut to `limit` characters, for the "got …" part of an error message.
    func quoted(limit: Int = 80) -> String {
        let text = compactJSON
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private var compactJSON: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let literal): literal
        case .string(let value): JSONValue.quote(value)
        case .array(let elements): "[" + elements.map(\.compactJSON).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { JSONValue.quote($0.key) + ":" + $0.value.compactJSON }.joined(separator: ",")
                + "}"
        }
    }

    /// A string as a JSON string literal, escaping what JSON requires and nothing else.
    static func quote(_ string: String) -> String {
        // Most strings need no escape, and are copied whole: a log line per request quotes several.
        let plain = !string.utf8.contains {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
        }
        if plain { return "\"" + string + "\"" }
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
