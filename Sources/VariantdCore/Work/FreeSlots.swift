import Synchronization

/// How many of a worker's slots are free: the claim loop waits for at least one, then claims as many
/// jobs as there are free slots in one claim, so a busy worker never holds a job it cannot start.
final class FreeSlots: Sendable {
    private let state: Mutex<(free: Int, waiter: CheckedContinuation<Void, Never>?)>
    let total: Int

    init(_ total: Int) {
        self.total = total
        state = Mutex((total, nil))
    }

    var free: Int { state.withLock { $0.free } }

    /// The number of free slots, once there is at least one. One caller waits at a time (the claim loop).
    func waitForAny() async -> Int {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.free > 0 { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        return free
    }

    func take() {
        state.withLock { $0.free -= 1 }
    }

    func give() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.free += 1
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
