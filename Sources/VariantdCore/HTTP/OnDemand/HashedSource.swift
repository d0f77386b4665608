/// A render source's SHA-256 and, when they were just read to compute it, the bytes to render from: a miss
/// then renders from them instead of reading the object a second time.
struct HashedSource: Sendable {
    /// Sources up to this size are handed on in memory; a larger one is held open as a file (or, from object
    /// storage, downloaded again), so that the requests waiting for a decoder never hold more than this much
    /// each.
    static let handOverLimit = 32 << 20

    var checksum: String
    /// Nil when the checksum was remembered, or the object-storage source is over `handOverLimit`.
    var bytes: RenditionSource.Bytes?
}
