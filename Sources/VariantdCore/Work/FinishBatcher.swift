import Synchronization

/// Writes back the outcomes of a worker's slots together: while one write is committing, outcomes that
/// arrive wait and go in the next one, so a worker running many jobs at once commits once per batch, not
/// once per job (a commit costs a disk flush).
final class FinishBatcher: Sendable {
    private typealias Waiter = CheckedContinuation<Result<Job?, QueueError>, Never>

    /// How a held outcome's write ended.
    enum Written: Sendable {
        case finished(Job)
        /// The job was claimed again since, or made final by a rescue: nothing was changed.
        case leaseLost
        /// Given up at a stop before the database answered.
        case unwritten
    }

    /// How an outcome is tried again while the database cannot be reached: 0.25 s, 0.5 s, 1 s … up to 5 s
    /// apart.
    static let outage = RetrySchedule(tries: nil, first: .milliseconds(250), cap: .seconds(5))

    private let queue: any JobQueue
    private let state = Mutex((pending: [(FinishedAttempt, Waiter)](), writing: false))
    /// Outcomes whose write failed, held to be tried again.
    private let held = Atomic<Int>(0)

    init(queue: any JobQueue) {
        self.queue = queue
    }

    /// Whether an outcome is waiting for the database to answer: the worker claims nothing meanwhile, since a
    /// claim would rescue that job's lease, expired during the outage, and throw the finished work away.
    var holdsUnwritten: Bool { held.load(ordering: .relaxed) > 0 }

    /// Records one outcome, trying again with capped backoff while the database cannot be reached, for as
    /// long as that lasts (a failover, a restart: the work is done) unless `stopping` says to give up after
    /// a failed try; `failed` hears each failed try and its number.
    func finish(
        _ attempt: FinishedAttempt, stopping: () -> Bool, failed: (QueueError, Int) -> Void
    ) async -> Written {
        var failures = 0
        defer { if failures > 0 { held.subtract(1, ordering: .relaxed) } }
        return await Self.outage.run {
            do throws(QueueError) {
                guard let job = try await finish(attempt) else { return .done(.leaseLost) }
                return .done(.finished(job))
            } catch {
                failures += 1
                if failures == 1 { held.add(1, ordering: .relaxed) }
                failed(error, failures)
                return stopping() ? .done(.unwritten) : .retry(.unwritten)
            }
        }
    }

    /// Records one outcome in the next write; nil when the lease was lost.
    private func finish(_ attempt: FinishedAttempt) async throws(QueueError) -> Job? {
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
