import Synchronization

/// Wakes idle claimers when work may have arrived: bumped by a LISTEN thread, by this process's own
/// enqueues, or by a poll that saw another process commit. Waiting checks it every few milliseconds, so
/// it needs no continuations and every wait ends by its timeout.
final class WakeSignal: Sendable {
    private let generation = Atomic<Int>(0)

    func signal() {
        generation.add(1, ordering: .releasing)
    }

    /// Returns when signalled, when `changed` reports true, or after `timeout`.
    func wait(
        upTo timeout: Duration, every interval: Duration = .milliseconds(50),
        changed: (() async -> Bool)? = nil
    ) async {
        let start = generation.load(ordering: .acquiring)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: min(interval, ContinuousClock.now.duration(to: deadline)))
            if generation.load(ordering: .acquiring) != start { return }
            if let changed, await changed() { return }
        }
    }
}
