/// Which stored object holds which bytes, as their renditions were made: what a deletion or an overwrite
/// needs to find the renditions to forget, since by then the bytes are gone. It lives in the queue's
/// database, so every daemon and worker sharing the queue sees one index.
///
/// Renditions are named by the source's bytes, so objects with the same bytes share them: a checksum is
/// handed back as orphaned only when no object in the index holds it any more. Renditions of bytes no
/// object was ever recorded for are left to `variantd gc`.
public protocol ObjectIndex: Sendable {
    /// Records that the object holds bytes of `checksum`; returns the checksum it held before when no
    /// object holds that one now, so that its renditions can go.
    func record(bucket: String, path: String, checksum: String) async throws(QueueError) -> String?

    /// Removes the object from the index; returns the checksum it held when no other object holds it.
    func forget(bucket: String, path: String) async throws(QueueError) -> String?
}
