import Variants

/// The key of the stored rendition found for each (source checksum, spec key), so a hit does not list the
/// source's renditions again (a folder read, or a ListObjectsV2 call). Keys are content addresses: one
/// found stays right for as long as it is there, and a request that finds it gone lists again.
final class FoundRenditions: Sendable {
    /// When full it starts over, which costs one listing per rendition.
    private let keys: BoundedMemo<String, String>

    init(capacity: Int = 65_536) {
        keys = BoundedMemo(capacity: capacity)
    }

    func key(sourceChecksum: String, specKey: String) -> String? {
        keys[sourceChecksum + "/" + specKey]
    }

    /// Remembers a stored key under the source checksum and spec key it names
    /// (`<sha[0..2]>/<sha>/<specKey>.<ext>`, as `RenditionKey` makes it).
    func remember(_ key: String) {
        let parts = key.split(separator: "/")
        guard parts.count == 3 else { return }
        keys.remember(key, for: parts[1] + "/" + RenditionKey.specKey(ofFileName: parts[2]))
    }
}
