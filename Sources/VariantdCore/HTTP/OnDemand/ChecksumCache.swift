import Variants

/// SHA-256 digests of stored things, kept while their identity stays the same (`FileIdentity` for files,
/// `S3ObjectIdentity` for objects), so a cache hit does not read and hash a large source again, yet an
/// overwritten one is hashed anew.
final class ChecksumCache<Identity: Equatable & Sendable>: Sendable {
    /// When full it starts over, which costs one hash per source.
    private let entries: BoundedMemo<String, (identity: Identity, checksum: String)>

    init(capacity: Int = 65_536) {
        entries = BoundedMemo(capacity: capacity)
    }

    /// The checksum remembered for `name` if it was remembered for this identity.
    func checksum(of name: String, identity: Identity) -> String? {
        guard let entry = entries[name], entry.identity == identity else { return nil }
        return entry.checksum
    }

    /// Remembers the checksum of `name` while it keeps this identity.
    func remember(_ checksum: String, of name: String, identity: Identity) {
        entries.remember((identity, checksum), for: name)
    }

    func forget(_ name: String) {
        entries.forget(name)
    }
}

extension ChecksumCache where Identity == FileIdentity {
    /// The remembered checksum while the file's identity holds; nil when it would have to be read.
    ///
    /// - Parameter name: What the checksum is remembered under, when the caller names one file by several
    ///   paths; `path` itself otherwise.
    func rememberedChecksum(ofFile path: String, as name: String? = nil) -> String? {
        FileIdentity(path: path).flatMap { checksum(of: name ?? path, identity: $0) }
    }

    /// The lowercase hex SHA-256 of the file at `path`, or nil when it is not a readable regular file.
    func checksum(ofFile path: String) -> String? {
        if let remembered = rememberedChecksum(ofFile: path) { return remembered }
        guard let pinned = PinnedFile(path: path), let checksum = try? pinned.file.sha256() else {
            return nil
        }
        remember(checksum, of: pinned, at: path)
        return checksum
    }

    /// Remembers the checksum of a file read through `pinned` when nothing wrote it while it was read, `path`
    /// still names it, and its identity has settled (`FileIdentity.isSettled`).
    func remember(_ checksum: String, of pinned: PinnedFile, at path: String, as name: String? = nil) {
        if pinned.isUnchanged, FileIdentity(path: path) == pinned.identity, pinned.identity.isSettled {
            remember(checksum, of: name ?? path, identity: pinned.identity)
        }
    }
}
