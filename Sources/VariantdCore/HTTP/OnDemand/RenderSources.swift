import Variants

/// Where render requests find a source's SHA-256, the name of its renditions, without reading and hashing
/// a large source on every request, yet never answering an overwritten one with the old bytes' checksum.
protocol RenderSources: Sendable {
    /// The checksum when a remembered one still holds and finding that out waits on nothing but a `stat`;
    /// nil when `checksum(of:)` must be asked.
    func rememberedChecksum(of source: String) -> String?

    /// The checksum of the source's current bytes, which are read and hashed only when its identity changed,
    /// with what that read leaves for a render (the bytes, or the file held open). Blocks its thread (file
    /// system, object storage).
    ///
    /// - Parameter source: The object's path relative to the store root, already checked by
    ///   `ObjectFolder.checkRelative`.
    /// - Throws: `400 invalid_request` for a path leading out of the store, `404 not_found`,
    ///   `413 payload_too_large`, `store_unavailable` when the store cannot be reached.
    func checksum(of source: String) throws(VariantsError) -> HashedSource

    /// The bytes to render a source from whose checksum was remembered: the file held open while its
    /// identity still vouches for `checksum`, or else the stored object, which the pool reads and hashes.
    func bytes(of source: String, checksum: String) -> RenditionSource.Bytes

    /// Ends whatever trust in the source's last identity spares a request asking the store, because a
    /// storage event said the object changed.
    func forgetIdentity(of source: String)
}
