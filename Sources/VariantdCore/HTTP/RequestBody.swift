import Foundation
import Variants

/// A request's body as the server kept it: in memory when short, in a spool file when longer, so a large
/// upload costs disk while it waits for a slot, not memory.
enum RequestBody: Sendable {
    case bytes([UInt8])
    case spooled(HeldFile)

    static let empty = RequestBody.bytes([])

    /// Its length in bytes.
    var count: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .spooled(let file): file.count
        }
    }

    /// The whole body, refused before reading when it is longer than `maxBytes`.
    ///
    /// - Throws: `413 payload_too_large`; `500 internal_error` when the spool file cannot be read back.
    func bytes(maxBytes: Int = .max) throws(VariantsError) -> [UInt8] {
        guard count <= maxBytes else {
            throw VariantsError(.payloadTooLarge, "the body is \(count) bytes, over the limit of \(maxBytes)")
        }
        switch self {
        case .bytes(let bytes): return bytes
        case .spooled(let file): return try file.read()
        }
    }
}
