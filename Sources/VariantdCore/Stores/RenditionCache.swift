import Foundation
import Synchronization
import Variants

/// Renditions read from object storage, kept on local disk so that a hit sends a file from a descriptor, as
/// from a folder, instead of asking the store and hashing what it answers. A rendition never changes under
/// its key (a content address), so a copy once downloaded stays right for as long as it is kept.
///
/// Each copy is `DIR/<key>.<sha256>`: its checksum, the `ETag`, is in its name, so it is known again after a
/// restart without reading the file, and comes into place with the file in one rename of a whole, flushed
/// file; unfinished files wait in `DIR/.incoming` and are removed when the cache is opened. The copies stay
/// within `budget` bytes, the least recently used going first; after a restart, the oldest written. The
/// folder is one daemon's own.
final class RenditionCache: Sendable {
    /// A copy kept, as the index knows it.
    struct Entry: Sendable {
        let path: String
        /// The rendition's SHA-256, its `ETag`.
        let checksum: String
        let size: Int
        /// The file as written, so a file changed or replaced behind the cache's back is not taken for it.
        let identity: FileIdentity
        var used: UInt64
    }

    /// What `/metrics` reports.
    struct Snapshot: Sendable, Equatable {
        var bytes = 0
        var files = 0
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    let directory: String
    let budget: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
        var evictions = 0
    }

    private var incoming: String { directory + "/.incoming" }

    /// Opens (or makes) the folder and reads back the copies it holds, dropping what a write left unfinished.
    ///
    /// - Throws: `500 internal_error` when the folder cannot be made.
    init(directory: String, budget: Int) throws(VariantsError) {
        self.directory =
            directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.budget = budget
        let incoming = self.directory + "/.incoming"
        do {
            try? FileManager.default.removeItem(atPath: incoming)
            try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        } catch {
            throw VariantsError(.internalError, "the rendition cache \(directory) cannot be made: \(error)")
        }
        WriteHealth.shared.watch(.onDemandCache, directory: self.directory)
        let found = readBack()
        state.withLock { state in
            for (rank, entry) in found.enumerated() {
                var entry = entry.entry
                entry.used = UInt64(rank)
                let key = String(entry.path.dropFirst(self.directory.count + 1).dropLast(65))
                state.entries[key] = entry
                state.bytes += entry.size
            }
            state.clock = UInt64(found.count)
            evict(&state)
        }
    }

    var snapshot: Snapshot {
        state.withLock { state in
            Snapshot(
                bytes: state.bytes, files: state.entries.count, hits: state.hits, misses: state.misses,
                evictions: state.evictions)
        }
    }

    /// The copy of `key` for a hit answered on the I/O thread, marked as used; nil when none is kept.
    func entry(_ key: String) -> Entry? {
        state.withLock { state in
            guard state.entries[key] != nil else { return nil }
            state.clock += 1
            state.entries[key]!.used = state.clock
            state.hits += 1
            return state.entries[key]
        }
    }

    /// The copy of `key` opened and ready to send, or nil (a miss) when none is kept or the file is no longer
    /// the one written, which is then let go.
    func open(_ key: String) -> StoredRendition? {
        guard
            let entry = state.withLock({ state in
                let entry = state.entries[key]
                if entry == nil { state.misses += 1 }
                return entry
            })
        else { return nil }
        guard let descriptor = try? FileDescriptor.open(entry.path, .reading) else {
            drop(key, entry)
            return nil
        }
        guard FileIdentity(descriptor: descriptor) == entry.identity else {
            descriptor.close()
            drop(key, entry)
            return nil
        }
        _ = self.entry(key)
        return StoredRendition(
            key: key, checksum: entry.checksum, size: entry.size,
            body: .spooled(HeldFile(descriptor: descriptor, count: entry.size)))
    }

    /// Keeps a copy of a rendition downloaded or just made, unless it alone is over the budget; false when
    /// it was not kept (nothing is left of a write that failed).
    @discardableResult
    func keep(_ rendition: StoredRendition) -> Bool {
        guard rendition.size <= budget, StoredRenditionName.isChecksum(rendition.checksum) else {
            return false
        }
        let temporary = incoming + "/" + UUID().uuidString
        let path = directory + "/" + rendition.key + "." + rendition.checksum
        do {
            try write(rendition.body, size: rendition.size, to: temporary)
            WriteHealth.shared.record(.onDemandCache, failure: nil)
        } catch {
            WriteHealth.shared.record(.onDemandCache, failure: error.errorNumber ?? 0)
            unlink(temporary)
            return false
        }
        guard
            (try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true))
                != nil
        else {
            unlink(temporary)
            return false
        }
        return state.withLock { state in
            guard (try? FileSystem.move(temporary, to: path)) == true,
                let identity = FileIdentity(path: path)
            else {
                unlink(temporary)
                return false
            }
            if let old = state.entries[rendition.key] {
                state.bytes -= old.size
                if old.path != path { unlink(old.path) }
            }
            state.clock += 1
            state.entries[rendition.key] = Entry(
                path: path, checksum: rendition.checksum, size: rendition.size, identity: identity,
                used: state.clock)
            state.bytes += rendition.size
            evict(&state)
            return true
        }
    }

    /// Drops the copies of every rendition of one source's bytes; how many went.
    @discardableResult
    func forget(sourceChecksum checksum: String) -> Int {
        let prefix = RenditionKey.directory(ofSource: checksum) + "/"
        let count = state.withLock { state in
            let keys = state.entries.keys.filter { $0.hasPrefix(prefix) }
            for key in keys {
                let entry = state.entries.removeValue(forKey: key)!
                state.bytes -= entry.size
                unlink(entry.path)
            }
            return keys.count
        }
        try? FileManager.default.removeItem(atPath: directory + "/" + prefix)
        return count
    }

    /// Drops the copy of one rendition, if one is kept.
    func forget(key: String) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: key) else { return }
            state.bytes -= entry.size
            unlink(entry.path)
        }
    }

    /// Lets go of a copy found missing or changed, if the index still holds that one.
    private func drop(_ key: String, _ entry: Entry) {
        state.withLock { state in
            guard state.entries[key]?.identity == entry.identity else { return }
            state.entries[key] = nil
            state.bytes -= entry.size
            unlink(entry.path)
        }
    }

    /// Removes the least recently used copies until the rest fit the budget.
    private func evict(_ state: inout State) {
        while state.bytes > budget, let oldest = state.entries.min(by: { $0.value.used < $1.value.used }) {
            state.entries[oldest.key] = nil
            state.bytes -= oldest.value.size
            state.evictions += 1
            unlink(oldest.value.path)
        }
    }

    private func unlink(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes the whole rendition to a new file and flushes it, so a rename gives its name only to whole bytes.
    private func write(_ body: RenditionBody, size: Int, to path: String) throws(BackendError) {
        switch body {
        case .bytes(let bytes):
            try FileSystem.writeDurably(bytes, to: path)
        case .spooled(let held):
            let file = try FileDescriptor.open(path, .creatingNew)
            defer { file.close() }
            var piece = [UInt8](repeating: 0, count: min(max(size, 1), 1 << 20))
            var offset = 0
            while offset < size {
                let length = min(piece.count, size - offset)
                try held.descriptor.read(into: &piece, count: length, at: offset)
                try file.write(Array(piece[..<length]))
                offset += length
            }
            try file.synchronize()
        case .file:
            throw BackendError(call: "write", message: "a local file is not cached")
        }
    }

    /// The copies on disk, oldest written first.
    private func readBack() -> [(entry: Entry, modified: timespec)] {
        var found: [(entry: Entry, modified: timespec)] = []
        let files = FileManager.default.enumerator(atPath: directory)
        while let relative = files?.nextObject() as? String {
            guard !relative.hasPrefix(".incoming") else { continue }
            let path = directory + "/" + relative
            let parts = relative.split(separator: "/")
            guard parts.count == 3, let identity = FileIdentity(path: path) else { continue }
            let name = parts[2]
            guard let dot = name.lastIndex(of: "."),
                StoredRenditionName.isChecksum(name[name.index(after: dot)...])
            else {
                unlink(path)
                continue
            }
            let entry = Entry(
                path: path, checksum: String(name[name.index(after: dot)...]), size: Int(identity.size),
                identity: identity, used: 0)
            found.append((entry, identity.modified))
        }
        return found.sorted {
            ($0.modified.tv_sec, $0.modified.tv_nsec) < ($1.modified.tv_sec, $1.modified.tv_nsec)
        }
    }
}

extension PrometheusText {
    /// The rendition cache's families, when the daemon keeps one (renditions in object storage).
    mutating func renditionCache(_ snapshot: RenditionCache.Snapshot) {
        single(
            "variantd_rendition_cache_bytes", "gauge",
            "Bytes of renditions from object storage kept on local disk (--rendition-cache).", snapshot.bytes)
        single(
            "variantd_rendition_cache_files", "gauge", "Renditions kept in the rendition cache.",
            snapshot.files)
        single(
            "variantd_rendition_cache_hits_total", "counter",
            "Render answers sent from the rendition cache, asking the store nothing.", snapshot.hits)
        single(
            "variantd_rendition_cache_misses_total", "counter",
            "Stored renditions the cache did not hold, downloaded from the store.", snapshot.misses)
        single(
            "variantd_rendition_cache_evictions_total", "counter",
            "Renditions removed from the cache, least recently used first, to keep it within its budget.",
            snapshot.evictions)
    }
}
