/// What an S3 answer says about an object's version: its `ETag` (derived from its content by every
/// S3-compatible store), `Last-Modified` and size. Any overwrite changes at least one, so a checksum remembered
/// for one identity vouches for the bytes while a HEAD still answers the same identity.
struct S3ObjectIdentity: Sendable, Equatable {
    var etag: String
    var lastModified: String
    var size: Int

    /// Read from a HEAD or GET answer's headers (names in lower case), the size from `Content-Length` unless
    /// given (the bytes a GET received); nil when one of the three is missing.
    init?(headers: [String: String], size: Int? = nil) {
        guard let etag = headers["etag"], let lastModified = headers["last-modified"],
            let size = size ?? headers["content-length"].flatMap(Int.init)
        else { return nil }
        self.etag = etag
        self.lastModified = lastModified
        self.size = size
    }
}
