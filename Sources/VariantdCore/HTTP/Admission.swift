import Synchronization

/// Bounded concurrency: `slots` jobs render at once (the decoder pool's children) and `waitingCapacity` more may
/// wait; a job beyond that is refused at once rather than left to time out in a growing backlog.
final class Admission: Sendable {
    let slots: Int
    let waitingCapacity: Int
    private let state = Mutex(State())

    private struct State {
        var admitted = 0
        var draining = false
    }

    /// Why a job was not admitted.
    enum Refusal: Sendable {
        case full
        case draining

        /// What the caller is answered: `503 transform_busy`, come back later.
        var error: ServiceError {
            switch self {
            case .full: ServiceError(.transformBusy, "every render slot and the wait queue are full")
            case .draining: ServiceError(.transformBusy, "the server is shutting down")
            }
        }
    }

    /// Counts of admitted jobs: the pool runs the first `slots` and queues the rest in order.
    struct Snapshot: Sendable {
        var running: Int
        var queued: Int
        var draining: Bool
    }

    init(slots: Int, waitingCapacity: Int) {
        self.slots = slots
        self.waitingCapacity = waitingCapacity
    }

    /// Admits a job, or says why not; an admitted job must `leave()` when answered.
    func enter() -> Refusal? {
        state.withLock { state in
            if state.draining { return .draining }
            guard state.admitted < slots + waitingCapacity else { return .full }
            state.admitted += 1
            return nil
        }
    }

    func leave() {
        state.withLock { $0.admitted -= 1 }
    }

    /// Refuses every later job; those admitted still run.
    func drain() {
        state.withLock { $0.draining = true }
    }

    var snapshot: Snapshot {
        state.withLock { state in
            Snapshot(
                running: min(state.admitted, slots), queued: max(0, state.admitted - slots),
                draining: state.draining)
        }
    }

    /// Able to take work: not draining, and the backlog is under its high-water mark (a slot or a place in
    /// the queue is free).
    var isReady: Bool {
        state.withLock { !$0.draining && $0.admitted < slots + waitingCapacity }
    }
}
