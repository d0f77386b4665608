import Synchronization

/// Writes back the outcomes of a worker's slots together: while one write is committing, outcomes that
/// arrive wait and go in the next one, so a worker running many jobs at once commits once per batch, not
/// once per job (a commit costs a disk flush).
final class FinishBatcher: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Job?, QueueError>, Never>

    private let queue: any JobQueue
    private let state = Mutex((pending: [(FinishedAttempt, Waiter)](), writing: false))

    init(queue: any JobQueue) {
        self.queue = queue
    }

    /// Records one outcome in the next write; nil when the lease was lost.
    func finish(_ attempt: FinishedAttempt) async throws(QueueError) -> Job? {
        let result = await withCheckedContinuation { (waiter: Waiter) in
            let leads = state.withLock { state -> Bool in
                state.pending.append((attempt, waiter))
                defer { state.writing = true }
                return !state.writing
            }
            if leads { Task { await write() } }
        }
        return try result.get()
    }

    /// Writes what is pending, then what arrived meanwhile, until nothing is left.
    private func write() async {
        while true {
            let batch = state.withLock { state in
                defer { state.pending = [] }
                if state.pending.isEmpty { state.writing = false }
                return state.pending
            }
            guard !batch.isEmpty else { return }
            do throws(QueueError) {
                let jobs = try await queue.finish(batch.map(\.0))
                for ((_, waiter), job) in zip(batch, jobs) { waiter.resume(returning: .success(job)) }
            } catch {
                for (_, waiter) in batch { waiter.resume(returning: .failure(error)) }
            }
        }
    }
}
