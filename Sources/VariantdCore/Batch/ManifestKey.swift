import Variants

/// What makes a manifest line count as done for a file: its path, its bytes and the bucket declaration,
/// folded into 128 bits of SHA-256 so that the set a resume keeps costs the same for every path length.
///
/// A Swift `Dictionary<ManifestKey, ResultCategory>` holds about 17 bytes per entry at a load factor of
/// at most 3/4, so roughly 25 bytes per manifest line: 10 million lines cost about 250 MB.
struct ManifestKey: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    init(path: String, sourceChecksum: String, declaration: String) {
        let digest = SHA256.hex(Array("\(declaration)\n\(sourceChecksum)\n\(path)".utf8))
        high = UInt64(digest.prefix(16), radix: 16) ?? 0
        low = UInt64(digest.dropFirst(16).prefix(16), radix: 16) ?? 0
    }
}
