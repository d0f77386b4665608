import Variants

/// What makes a manifest line count as done for a file: its path, its bytes and the bucket declaration,
/// folded into 128 bits of SHA-256 so that the set a resume keeps costs the same for every path length.
///
/// A `Dictionary<ManifestKey, ResultCategory>` slot is 17 bytes and the table is filled to between 3/8 and
/// 3/4, so a manifest line costs about 23 to 45 bytes: 10 million lines at most about 450 MB.
struct ManifestKey: Hashable, Sendable {
    private let high: UInt64
    private let low: UInt64

    init(path: String, sourceChecksum: String, declaration: String) {
        let digest = SHA256.hex(Array("\(declaration)\n\(sourceChecksum)\n\(path)".utf8))
        high = UInt64(digest.prefix(16), radix: 16) ?? 0
        low = UInt64(digest.dropFirst(16).prefix(16), radix: 16) ?? 0
    }
}
