import Foundation
import Variants

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

    /// A request body read as `type`: a refusal of its own decoder as it is, any other failure
    /// `400 invalid_request` saying that `subject` is not of the expected shape.
    static func request<T: Decodable>(_ type: T.Type, from body: [UInt8], subject: String)
        throws(VariantsError)
        -> T
    {
        do {
            return try decode(type, from: body)
        } catch let error as VariantsError {
            throw error
        } catch {
            throw VariantsError(.invalidRequest, "\(subject) is not JSON of the expected shape: \(error)")
        }
    }
}
