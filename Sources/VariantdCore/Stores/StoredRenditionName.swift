import Variants

/// The shape of the rendition store's own names, `<sha[0..2]>/<sha>/<specKey>.<ext>`: what the walks over a
/// store (the sweep, the on-demand budget's) take for renditions, so hidden names (`.tmp`, the quarantine)
/// and anything else that shares the location stay whatever they are.
enum StoredRenditionName {
    /// Whether a name is a SHA-256 in lowercase hex: a source's directory, or a local copy's checksum.
    static func isChecksum(_ name: some StringProtocol) -> Bool {
        isHex(name, count: 64)
    }

    /// Whether a name is the first level of the store: the first two digits of a checksum.
    static func isPrefix(_ name: some StringProtocol) -> Bool {
        isHex(name, count: 2)
    }

    /// Whether a source's directory belongs under this first level.
    static func isSource(_ name: some StringProtocol, under prefix: some StringProtocol) -> Bool {
        isChecksum(name) && name.hasPrefix(prefix)
    }

    /// The rendition key of a path relative to the store, and the source checksum it is under; nil for any
    /// other name, a hidden one included.
    static func key(_ relative: some StringProtocol) -> (key: String, source: String)? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, isPrefix(parts[0]), isSource(parts[1], under: parts[0]), !parts[2].isEmpty,
            !parts[2].hasPrefix(".")
        else { return nil }
        return (String(relative), String(parts[1]))
    }

    private static func isHex(_ name: some StringProtocol, count: Int) -> Bool {
        name.utf8.count == count
            && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
