import Variants

/// Where the bytes of the object an order is for come from, and what the caller already knows of them: the
/// pool reads and hashes a source at most once, whoever asks, and reuses what the caller found out.
struct RenditionSource: Sendable {
    enum Bytes: Sendable {
        /// A key in the pool's object store: read, and hashed, by the pool when a child is free.
        case stored(String)
        /// Held by the caller (an upload, or a source it read to hash), with their SHA-256 when it has it.
        case inHand(RequestBody, checksum: String?)
        /// A stored file held open since its identity vouched for `checksum`: read by the pool, and hashed
        /// only if it was written since.
        case pinned(PinnedFile, checksum: String)
    }

    var bytes: Bytes
    /// The spec keys the caller found stored for these bytes just now; nil has the pool look them up.
    var listed: Set<String>?

    init(_ bytes: Bytes, listed: Set<String>? = nil) {
        self.bytes = bytes
        self.listed = listed
    }

    /// An object in the pool's store, nothing known of it.
    static func stored(_ key: String) -> RenditionSource {
        RenditionSource(.stored(key))
    }

    /// Bytes in hand, with their checksum when the caller hashed them.
    static func inHand(_ body: RequestBody, checksum: String? = nil) -> RenditionSource {
        RenditionSource(.inHand(body, checksum: checksum))
    }

    /// Reads the bytes (refused over `maxBytes`) and the checksum that names them, hashing only where the
    /// caller could not say. Blocks.
    func load(from objects: any ObjectStore, maxBytes: Int, timings: inout StageTimings) throws(VariantsError)
        -> (bytes: [UInt8], checksum: String)
    {
        let bytes: [UInt8]
        let known: String?
        switch self.bytes {
        case .stored(let key):
            bytes = try timings.measure(.read) { () throws(VariantsError) in
                try objects.read(key, maxBytes: maxBytes)
            }
            known = nil
        case .inHand(let body, let checksum):
            bytes = try timings.measure(.read) { () throws(VariantsError) in
                try body.bytes(maxBytes: maxBytes)
            }
            known = checksum
        case .pinned(let file, let checksum):
            bytes = try timings.measure(.read) { () throws(VariantsError) in try file.read(maxBytes: maxBytes)
            }
            known = file.isUnchanged ? checksum : nil
        }
        return (bytes, known ?? timings.measure(.hash) { SHA256.hex(bytes) })
    }
}
