import Synchronization
import Variants

/// The rendition store a decoder child renders into: the stored renditions its parent handed over with the
/// job, and, in memory, the new ones the parent is to write.
final class HandedRenditions: RenditionStore {
    private let handed: [RenditionFile]
    private let pending = Mutex<[RenditionFile]>([])

    init(_ handed: [RenditionFile]) {
        self.handed = handed
    }

    /// What `write` was given, in order.
    var written: [RenditionFile] { pending.withLock { $0 } }

    func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile] {
        handed
    }

    func write(_ files: [RenditionFile]) throws(VariantsError) {
        pending.withLock { $0.append(contentsOf: files) }
    }
}
