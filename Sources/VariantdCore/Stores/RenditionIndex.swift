import Foundation
import Synchronization
import Variants

/// What this daemon knows is stored for each source's bytes: under each spec key, the rendition's key, its
/// `ETag` once read or made, its size, and for transforms when it was last used. Hits, the per-picture
/// cap's count, deletions, the on-demand budget and the local copies of object storage all ask this one
/// index, so forgetting a source here is forgetting it everywhere in the daemon.
///
/// Keys are content addresses: a rendition known stays right while it is there, and a hit that finds its
/// file gone falls back to a listing of the store, which the index learns from. The index holds at most
/// `capacity` renditions besides the transforms the on-demand budget counts; when full, it lets go of
/// the others at once, each earned back by one listing.
final class RenditionIndex: Sendable {
    /// One stored rendition as known here.
    struct Rendition: Sendable, Equatable {
        let key: String
        /// The rendition's SHA-256, its `ETag`, when known: made by the child, or read from `identity`.
        var checksum: String?
        /// The file `checksum` was read from or written as, in a folder store; a file replaced since is
        /// hashed again. Nil in object storage, where the local copy carries its own.
        var identity: FileIdentity?
        /// Counted by the on-demand budget: a transform's rendition, with its size and last use.
        var use: Use?
    }

    struct Use: Sendable, Equatable {
        var size: Int
        /// Nanoseconds since 1970, strictly increasing for uses seen here, so two uses never tie.
        var stamp: Int64
    }

    private struct State {
        /// Source checksum → spec key → rendition.
        var sources: [String: [String: Rendition]] = [:]
        var count = 0
        var counted = 0
        var countedBytes = 0
        var lastStamp: Int64 = 0
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 65_536) {
        self.capacity = capacity
    }

    /// The rendition known for a source's spec key; one lock and two dictionary look-ups, for the I/O thread.
    func rendition(ofSource checksum: String, specKey: String) -> Rendition? {
        state.withLock { $0.sources[checksum]?[specKey] }
    }

    func rendition(_ key: String) -> Rendition? {
        guard let (source, specKey) = Self.parts(of: key) else { return nil }
        return rendition(ofSource: source, specKey: specKey)
    }

    /// Bytes and number of the renditions the on-demand budget counts.
    var counted: (bytes: Int, renditions: Int) {
        state.withLock { ($0.countedBytes, $0.counted) }
    }

    /// A rendition found in the store, or made, under `key`; its checksum kept with the file it was read
    /// from or written as, when given.
    func remember(_ key: String, checksum: String? = nil, identity: FileIdentity? = nil) {
        update(key) { rendition in
            if let checksum {
                rendition.checksum = checksum
                rendition.identity = identity
            }
        }
    }

    /// The `ETag` of the folder file at `path` holding `key`: the one known while the file keeps its
    /// identity, or else read from the file and kept. Nil when it is not a readable regular file. Blocks.
    func checksum(of key: String, file path: String) -> String? {
        if let known = rendition(key), let checksum = known.checksum, let identity = known.identity,
            FileIdentity(path: path) == identity
        {
            return checksum
        }
        guard let pinned = PinnedFile(path: path), let checksum = try? pinned.file.sha256() else {
            return nil
        }
        let settled = pinned.isUnchanged && FileIdentity(path: path) == pinned.identity
        remember(key, checksum: settled ? checksum : nil, identity: settled ? pinned.identity : nil)
        return checksum
    }

    /// A transform's rendition of `size` bytes used now.
    ///
    /// - Returns: the bytes the budget counts afterwards.
    @discardableResult
    func use(ofSource checksum: String, specKey: String, key: String, size: Int) -> Int {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        return state.withLock { state in
            let stamp = max(now, state.lastStamp + 1)
            state.lastStamp = stamp
            Self.count(
                &state, Use(size: size, stamp: stamp), of: key, source: checksum, specKey: specKey,
                capacity: capacity)
            return state.countedBytes
        }
    }

    /// A transform's rendition found in the store, last used at `stamp` (its modification time): counted
    /// only when no use of it was seen meanwhile.
    ///
    /// - Returns: the bytes the budget counts afterwards.
    @discardableResult
    func found(_ key: String, size: Int, stamp: Int64) -> Int {
        guard let (source, specKey) = Self.parts(of: key) else { return counted.bytes }
        return state.withLock { state in
            if state.sources[source]?[specKey]?.use == nil {
                Self.count(
                    &state, Use(size: size, stamp: stamp), of: key, source: source, specKey: specKey,
                    capacity: capacity)
            }
            return state.countedBytes
        }
    }

    /// The least recently used counted renditions whose removal brings the count within `budget`, those
    /// whose spec key is in `keeping` left out.
    func leastRecentlyUsed(beyond budget: Int, keeping: Set<String>) -> [String] {
        state.withLock { state in
            var excess = state.countedBytes - budget
            guard excess > 0 else { return [] }
            var counted: [(key: String, specKey: String, use: Use)] = []
            for renditions in state.sources.values {
                for (specKey, rendition) in renditions {
                    if let use = rendition.use { counted.append((rendition.key, specKey, use)) }
                }
            }
            var doomed: [String] = []
            for candidate in counted.sorted(by: { $0.use.stamp < $1.use.stamp }) {
                guard excess > 0 else { break }
                guard !keeping.contains(candidate.specKey) else { continue }
                doomed.append(candidate.key)
                excess -= candidate.use.size
            }
            return doomed
        }
    }

    /// Lets go of one rendition, removed from the store.
    func remove(_ key: String) {
        guard let (source, specKey) = Self.parts(of: key) else { return }
        state.withLock { state in
            guard let known = state.sources[source]?[specKey], known.key == key else { return }
            Self.count(&state, known.use, nil)
            state.sources[source]![specKey] = nil
            state.count -= 1
            if state.sources[source]!.isEmpty { state.sources[source] = nil }
        }
    }

    /// Lets go of every rendition of one source's bytes.
    func forget(sourceChecksum checksum: String) {
        state.withLock { state in
            guard let renditions = state.sources.removeValue(forKey: checksum) else { return }
            state.count -= renditions.count
            for rendition in renditions.values { Self.count(&state, rendition.use, nil) }
        }
    }

    private func update(_ key: String, _ change: (inout Rendition) -> Void) {
        guard let (source, specKey) = Self.parts(of: key) else { return }
        state.withLock { state in
            if var known = state.sources[source]?[specKey], known.key == key {
                change(&known)
                state.sources[source]![specKey] = known
            } else {
                var rendition = Rendition(key: key)
                change(&rendition)
                if let replaced = state.sources[source]?[specKey] {
                    Self.count(&state, replaced.use, nil)
                    state.sources[source]![specKey] = rendition
                } else {
                    Self.insert(&state, rendition, source: source, specKey: specKey, capacity: capacity)
                }
            }
        }
    }

    /// Counts `use` for the rendition under `key`, known or not.
    private static func count(
        _ state: inout State, _ use: Use, of key: String, source: String, specKey: String, capacity: Int
    ) {
        if let known = state.sources[source]?[specKey], known.key == key {
            count(&state, known.use, use)
            state.sources[source]![specKey]!.use = use
        } else {
            insert(
                &state, Rendition(key: key, use: use), source: source, specKey: specKey, capacity: capacity)
        }
    }

    /// Adds a rendition not known yet; a full index first lets go of every rendition the budget does not
    /// count.
    private static func insert(
        _ state: inout State, _ rendition: Rendition, source: String, specKey: String, capacity: Int
    ) {
        if let replaced = state.sources[source]?[specKey] {
            count(&state, replaced.use, nil)
            state.count -= 1
        }
        if state.count - state.counted >= capacity {
            for (checksum, renditions) in state.sources {
                let kept = renditions.filter { $0.value.use != nil }
                state.sources[checksum] = kept.isEmpty ? nil : kept
            }
            state.count = state.counted
        }
        state.sources[source, default: [:]][specKey] = rendition
        state.count += 1
        count(&state, nil, rendition.use)
    }

    /// Moves the budget's tally from one use of a rendition to another.
    private static func count(_ state: inout State, _ old: Use?, _ new: Use?) {
        if let old {
            state.counted -= 1
            state.countedBytes -= old.size
        }
        if let new {
            state.counted += 1
            state.countedBytes += new.size
        }
    }

    /// The source checksum and spec key of `<sha[0..2]>/<sha>/<specKey>.<ext>`.
    private static func parts(of key: String) -> (source: String, specKey: String)? {
        let parts = key.split(separator: "/")
        guard parts.count == 3 else { return nil }
        let specKey = RenditionKey.specKey(ofFileName: parts[2])
        return specKey.isEmpty ? nil : (String(parts[1]), specKey)
    }
}
