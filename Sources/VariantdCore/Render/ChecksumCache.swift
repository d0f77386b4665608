import Synchronization

/// SHA-256 digests of files, kept while the file's identity (`FileIdentity`) stays the same, so a cache hit
/// does not read and hash a large source again, yet an overwritten file is hashed anew.
final class ChecksumCache: Sendable {
    private let entries = Mutex<[String: (identity: FileIdentity, checksum: String)]>([:])
    /// Entries kept at most; when full the cache starts over, which costs one hash per file.
    private let capacity: Int

    init(capacity: Int = 65_536) {
        self.capacity = capacity
    }

    /// The remembered checksum while the file's identity holds; nil when it would have to be read.
    func rememberedChecksum(ofFile path: String) -> String? {
        guard let identity = FileIdentity(path: path), let entry = entries.withLock({ $0[path] }),
            entry.identity == identity
        else { return nil }
        return entry.checksum
    }

    /// The lowercase hex SHA-256 of the file, or nil when it is not a readable regular file.
    func checksum(ofFile path: String) -> String? {
        if let remembered = rememberedChecksum(ofFile: path) { return remembered }
        guard let before = FileIdentity(path: path), let checksum = SourceChecksum.of(path) else {
            return nil
        }
        // Kept only when nothing changed while hashing, and not in the clock tick of the last write.
        if FileIdentity(path: path) == before, !before.isRecent(within: 1) {
            entries.withLock { entries in
                if entries.count >= capacity { entries.removeAll() }
                entries[path] = (before, checksum)
            }
        }
        return checksum
    }
}
