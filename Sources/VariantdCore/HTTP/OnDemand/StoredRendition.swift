import Variants

/// A rendition in the store, as found there or just made, ready to send.
struct StoredRendition: Sendable {
    /// The rendition's key in the store.
    var key: String
    /// Its SHA-256, the strong `ETag`.
    var checksum: String
    /// Its length in bytes, as found (a file's is sent as it is when sent).
    var size: Int
    var body: RenditionBody
}
