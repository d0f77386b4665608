import Foundation

/// The few XML documents S3 answers with, read by element name. They are flat enough (no attributes we
/// need, no nesting of equal names) that a scan for `<Name>…</Name>` reads them exactly.
struct S3Document: Sendable {
    private let text: String

    init(_ bytes: [UInt8]) {
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// The text of every `<name>` element in order, entities decoded.
    func values(_ name: String) -> [String] {
        elements(name, in: Substring(text)).map { Self.unescaped(String($0)) }
    }

    /// The first `<name>` element's text.
    func value(_ name: String) -> String? { values(name).first }

    /// The raw content of every `<name>` element, for reading a nested element (`Contents`) field by field.
    func blocks(_ name: String) -> [S3Document] {
        elements(name, in: Substring(text)).map { S3Document(Array($0.utf8)) }
    }

    private func elements(_ name: String, in text: Substring) -> [Substring] {
        let open = "<\(name)>"
        let close = "</\(name)>"
        var found: [Substring] = []
        var rest = text[...]
        while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: close) {
            found.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// XML's five named entities and numeric character references.
    private static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                out += number.flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
