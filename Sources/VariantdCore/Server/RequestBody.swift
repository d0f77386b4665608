import Foundation
import Variants

/// A request's body as the server kept it: in memory when short, in a spool file when longer, so a large
/// upload costs disk while it waits for a slot, not memory.
enum RequestBody: Sendable {
    case bytes([UInt8])
    case spooled(SpooledBody)

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

/// A body in a spool file that has no name: it was unlinked when it was made, so the disk space comes back
/// when this value's last reference goes and its descriptor is closed, whatever became of the request.
final class SpooledBody: Sendable {
    let count: Int
    private let descriptor: Int32

    /// Takes ownership of `descriptor`, whose first `count` bytes are the body.
    init(descriptor: Int32, count: Int) {
        self.descriptor = descriptor
        self.count = count
    }

    deinit {
        close(descriptor)
    }

    /// The body's bytes, read straight into the array that holds them.
    func read() throws(VariantsError) -> [UInt8] {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let read = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(initialized))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    complete = false
                    return
                }
                initialized += read
            }
        }
        guard complete else {
            throw VariantsError(.internalError, "the spooled request body cannot be read back")
        }
        return bytes
    }
}
