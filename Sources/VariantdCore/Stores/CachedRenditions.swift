import Variants

/// A rendition store in object storage with a local copy of the renditions served from it: everything is
/// asked of the store, and forgetting a source's renditions drops their copies too, so a rendition the store
/// no longer has is not served from disk either.
struct CachedRenditions: RenditionCatalog {
    let store: any RenditionCatalog
    let cache: RenditionCache

    func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile] {
        store.stored(sourceChecksum: sourceChecksum, specKeys: specKeys)
    }

    func write(_ files: [RenditionFile]) throws(VariantsError) {
        try store.write(files)
    }

    func listing(ofSource checksum: String) throws(VariantsError) -> [String: String] {
        try store.listing(ofSource: checksum)
    }

    func file(of key: String) -> String? {
        store.file(of: key)
    }

    func body(of key: String) throws(VariantsError) -> RenditionBody? {
        try store.body(of: key)
    }

    /// The copies first: once the store has let a rendition go, no hit finds it here.
    func forget(sourceChecksum checksum: String) throws(VariantsError) -> Int {
        cache.forget(sourceChecksum: checksum)
        return try store.forget(sourceChecksum: checksum)
    }

    /// The copy first, for the same reason.
    func remove(key: String) throws(VariantsError) {
        cache.forget(key: key)
        try store.remove(key: key)
    }
}
