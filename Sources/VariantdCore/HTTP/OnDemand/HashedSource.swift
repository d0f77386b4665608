/// A render source's SHA-256 and, when they were just downloaded to compute it, the bytes themselves: a miss
/// then renders from them instead of downloading the object a second time.
struct HashedSource: Sendable {
    /// Sources up to this size are handed on; a larger one is read again by the decoder pool, so that the
    /// requests waiting for a decoder never hold more than this much each.
    static let handOverLimit = 32 << 20

    var checksum: String
    /// Nil when the checksum was remembered or the source is over `handOverLimit`.
    var bytes: [UInt8]?
}
