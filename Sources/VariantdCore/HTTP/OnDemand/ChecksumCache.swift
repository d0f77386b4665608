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
    ///
    /// - Parameters:
    ///   - name: As for `rememberedChecksum(ofFile:as:)`.
    ///   - real: Where to read it when the caller resolved `path`'s symbolic links; the checksum is
    ///     remembered only when both name the same file from before the read to after it.
    func checksum(ofFile path: String, as name: String? = nil, readingFrom real: String? = nil) -> String? {
        if let remembered = rememberedChecksum(ofFile: path, as: name) { return remembered }
        return hashing(path, as: name, readingFrom: real ?? path) { SourceChecksum.of($0) }
    }

    /// The file's bytes and their SHA-256 from one read, remembered as `checksum(ofFile:)` remembers it, for a
    /// caller that goes on to decode them; nil when it is not a readable regular file of at most `maxBytes`.
    func bytesAndChecksum(
        ofFile path: String, as name: String? = nil, readingFrom real: String, maxBytes: Int
    )
        -> (checksum: String, bytes: [UInt8])?
    {
        var bytes: [UInt8] = []
        let checksum = hashing(path, as: name, readingFrom: real) { real in
            guard let read = try? SourceFile.read(real, maxBytes: maxBytes) else { return nil }
            bytes = read
            return SHA256.hex(read)
        }
        return checksum.map { ($0, bytes) }
    }

    /// Hashes with `hash`, and remembers the checksum only when nothing changed while hashing and the
    /// identity has settled (`FileIdentity.isSettled`).
    private func hashing(
        _ path: String, as name: String?, readingFrom real: String, hash: (String) -> String?
    )
        -> String?
    {
        guard let before = FileIdentity(path: real), let checksum = hash(real) else { return nil }
        if FileIdentity(path: real) == before, FileIdentity(path: path) == before, before.isSettled {
            remember(checksum, of: name ?? path, identity: before)
        }
        return checksum
    }
}
