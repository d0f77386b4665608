import Variants

/// The daemon's rendition store as its hits see it: everything is asked of the store, and the renditions of
/// a source forgotten are let go of first in the `RenditionIndex` and in the local copies of object storage,
/// so a rendition the store no longer has is not found in memory or served from disk either.
struct IndexedRenditions: RenditionCatalog {
    let store: any RenditionCatalog
    let index: RenditionIndex
    /// Local copies of renditions kept in object storage; nil when they are in a folder.
    let cache: RenditionCache?

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

    func forget(sourceChecksum checksum: String) throws(VariantsError) -> Int {
        index.forget(sourceChecksum: checksum)
        cache?.forget(sourceChecksum: checksum)
        return try store.forget(sourceChecksum: checksum)
    }

    /// The copy first, then the store's; the index is left to the caller, which counted the rendition there
    /// (`OnDemandBudget`).
    func remove(key: String) throws(VariantsError) {
        cache?.forget(key: key)
        try store.remove(key: key)
    }
}
