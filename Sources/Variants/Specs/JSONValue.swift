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
        var text: [UInt8] = []
        appendQuoted(string, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal to UTF-8 text.
    static func appendQuoted(_ string: String, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            // Most strings need no escape, and are copied whole: a log line per request quotes several.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else {
                text.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): text.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): text.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): text.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): text.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): text.append(contentsOf: #"\t"#.utf8)
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    text.append(contentsOf: #"\u00"#.utf8)
                    text.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                default: text.append(byte)
                }
            }
        }
        text.append(UInt8(ascii: "\""))
    }
}
