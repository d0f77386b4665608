import Synchronization

/// A dictionary shared by the render path's threads that keeps at most `capacity` entries and, when full,
/// starts over: each entry is earned back by one slow request, so forgetting all at once costs a few misses
/// and saves any bookkeeping on the hits.
final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Key: Value]>([:])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int {
        entries.withLock { $0.count }
    }

    subscript(key: Key) -> Value? {
        entries.withLock { $0[key] }
    }

    func remember(_ value: Value, for key: Key) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = value
        }
    }

    func forget(_ key: Key) {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }
}
