import Foundation

/// The one JSON form variantd writes everywhere (stdout lines, manifests, the child protocol, HTTP bodies):
/// sorted keys so lines diff cleanly, slashes unescaped so paths read as paths, one line per value.
public enum WireJSON {
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    public static func line(_ value: some Encodable) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
