import Foundation
import Synchronization
import Variants

/// Bounds the bytes of on-demand renditions in the rendition store, as nginx's `proxy_cache_path max_size=`
/// bounds a cache: over budget, the least recently used go first. Transforms are made by whoever asks, so
/// without a bound they fill the store; declared variants are what jobs and storage events made on
/// purpose, and are never removed.
///
/// The renditions counted, with their sizes and last uses, are the `RenditionIndex`'s: those this daemon
/// made or sent, and those a folder held when it started (`recordStored(inFolder:)`). A source forgotten
/// there is no longer counted. A hit costs one lock and one dictionary write; removals run off the I/O
/// thread, one round at a time.
final class OnDemandBudget: Sendable {
    struct Snapshot: Sendable, Equatable {
        var bytes: Int
        var evictions: Int
    }

    private struct State {
        var evictions = 0
        var evicting = false
    }

    /// Bytes the on-demand renditions known may take; over it, they are removed until they fit.
    let budget: Int
    let index: RenditionIndex
    private let catalog: any RenditionCatalog
    let registry: BucketRegistry
    private let state = Mutex(State())

    init(budget: Int, index: RenditionIndex, catalog: any RenditionCatalog, registry: BucketRegistry) {
        self.budget = budget
        self.index = index
        self.catalog = catalog
        self.registry = registry
    }

    var snapshot: Snapshot {
        Snapshot(bytes: index.counted.bytes, evictions: state.withLock { $0.evictions })
    }

    /// Whether a rendition is counted against the budget.
    func isRecorded(_ key: String) -> Bool {
        index.rendition(key)?.use != nil
    }

    /// A rendition made or sent for a transform, used now.
    func record(ofSource checksum: String, specKey: String, key: String, size: Int) {
        let bytes = index.use(ofSource: checksum, specKey: specKey, key: key, size: size)
        if startsEvicting(bytes) { evictInBackground() }
    }

    /// A rendition found in the store, last used at `used` (its modification time): counted only when no
    /// use of it was seen meanwhile.
    func recordFound(_ key: String, size: Int, used: Int64) {
        if startsEvicting(index.found(key, size: size, stamp: used)) { evictInBackground() }
    }

    /// Removes the least recently used on-demand renditions until the rest fit the budget, skipping those
    /// whose spec key a bucket declares now. Blocks on the store.
    func evict() {
        while true {
            let doomed = index.leastRecentlyUsed(beyond: budget, keeping: registry.declaredSpecKeys)
            if doomed.isEmpty {
                state.withLock { $0.evicting = false }
                return
            }
            for victim in doomed {
                do {
                    try catalog.remove(key: victim)
                } catch {
                    // The store cannot be reached: the next rendition recorded tries again.
                    EventLog.event(
                        "on_demand_eviction_failed",
                        ["key": .string(victim), "message": .string(error.message)])
                    state.withLock { $0.evicting = false }
                    return
                }
                state.withLock { $0.evictions += 1 }
                index.remove(victim)
            }
        }
    }

    private func evictInBackground() {
        DispatchQueue.global(qos: .utility).async { self.evict() }
    }

    /// Whether the caller is to start a round of removals: over budget and none under way.
    private func startsEvicting(_ bytes: Int) -> Bool {
        guard bytes > budget else { return false }
        return state.withLock { state in
            guard !state.evicting else { return false }
            state.evicting = true
            return true
        }
    }
}
