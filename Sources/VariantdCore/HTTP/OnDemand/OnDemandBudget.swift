import Foundation
import Synchronization
import Variants

/// Bounds the bytes of on-demand renditions in the rendition store, as nginx's `proxy_cache_path max_size=`
/// bounds a cache: over budget, the least recently used go first. Transforms are made by whoever asks, so
/// without a bound they fill the store; declared variants are what jobs and storage events made on
/// purpose, and are never removed.
///
/// Only renditions this daemon made or sent are known, with those a folder held when it started
/// (`recordStored(inFolder:)`). A hit costs one lock and one dictionary write; removals run off the I/O
/// thread, one round at a time.
final class OnDemandBudget: Sendable {
    struct Snapshot: Sendable, Equatable {
        var bytes: Int
        var evictions: Int
    }

    private struct Use {
        var size: Int
        /// Nanoseconds since 1970, strictly increasing for uses seen here, so two uses never tie.
        var used: Int64
    }

    private struct State {
        var uses: [String: Use] = [:]
        var bytes = 0
        var evictions = 0
        var lastStamp: Int64 = 0
        var evicting = false
    }

    /// Bytes the on-demand renditions known may take; over it, they are removed until they fit.
    let budget: Int
    private let catalog: any RenditionCatalog
    let registry: BucketRegistry
    private let state = Mutex(State())

    init(budget: Int, catalog: any RenditionCatalog, registry: BucketRegistry) {
        self.budget = budget
        self.catalog = catalog
        self.registry = registry
    }

    var snapshot: Snapshot {
        state.withLock { Snapshot(bytes: $0.bytes, evictions: $0.evictions) }
    }

    /// Whether a rendition is known, for tests and the walk.
    func isRecorded(_ key: String) -> Bool {
        state.withLock { $0.uses[key] != nil }
    }

    /// A rendition made or sent for a transform, used now.
    func record(_ key: String, size: Int) {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        let start = state.withLock { state -> Bool in
            let stamp = max(now, state.lastStamp + 1)
            state.lastStamp = stamp
            let old = state.uses.updateValue(Use(size: size, used: stamp), forKey: key)
            state.bytes += size - (old?.size ?? 0)
            return Self.startsEvicting(&state, budget: budget)
        }
        if start { evictInBackground() }
    }

    /// A rendition found in the store, last used at `used` (its modification time): recorded only when no
    /// use of it was seen meanwhile.
    func recordFound(_ key: String, size: Int, used: Int64) {
        let start = state.withLock { state -> Bool in
            guard state.uses[key] == nil else { return false }
            state.uses[key] = Use(size: size, used: used)
            state.bytes += size
            return Self.startsEvicting(&state, budget: budget)
        }
        if start { evictInBackground() }
    }

    /// Removes the least recently used on-demand renditions until the rest fit the budget, skipping those
    /// whose spec key a bucket declares now. Blocks on the store.
    func evict() {
        while true {
            let declared = registry.declaredSpecKeys
            let doomed = state.withLock { state -> [(key: String, used: Int64)] in
                var excess = state.bytes - budget
                var doomed: [(key: String, used: Int64)] = []
                if excess > 0 {
                    for (key, use) in state.uses.sorted(by: { $0.value.used < $1.value.used }) {
                        guard excess > 0 else { break }
                        guard !declared.contains(Self.specKey(of: key)) else { continue }
                        doomed.append((key, use.used))
                        excess -= use.size
                    }
                }
                if doomed.isEmpty { state.evicting = false }
                return doomed
            }
            if doomed.isEmpty { return }
            for victim in doomed {
                do {
                    try catalog.remove(key: victim.key)
                } catch {
                    // The store cannot be reached: the next rendition recorded tries again.
                    EventLog.event(
                        "on_demand_eviction_failed",
                        ["key": .string(victim.key), "message": .string(error.message)])
                    state.withLock { $0.evicting = false }
                    return
                }
                state.withLock { state in
                    state.evictions += 1
                    // A use recorded meanwhile stays known: its file may be made again.
                    guard let use = state.uses[victim.key], use.used == victim.used else { return }
                    state.uses[victim.key] = nil
                    state.bytes -= use.size
                }
            }
        }
    }

    private func evictInBackground() {
        DispatchQueue.global(qos: .utility).async { self.evict() }
    }

    /// Whether the caller is to start a round of removals: over budget and none under way.
    private static func startsEvicting(_ state: inout State, budget: Int) -> Bool {
        guard state.bytes > budget, !state.evicting else { return false }
        state.evicting = true
        return true
    }

    /// The spec key of `<sha[0..2]>/<sha>/<specKey>.<ext>`.
    private static func specKey(of key: String) -> String {
        RenditionKey.specKey(ofFileName: key.split(separator: "/").last ?? "")
    }
}
