import Synchronization
import VariantdCore
import Variants

/// Claim + finish throughput of no-op jobs on one queue, for the benchmark: enqueues `jobs + backlog`
/// jobs (and a tenth more, claimed first untimed as a warm-up) in a bucket of their own, batched as
/// `enqueue --from` does; then `claimers` concurrent loops
/// claim `batch` jobs per claim and finish them in one write (as a worker's slots finishing together
/// do), until `jobs` are done — so the rate is measured with
/// at least `backlog` jobs still waiting behind the claims. Paths sort in enqueue order, as a backfill
/// of a sorted listing (`enqueue --walk`, an exported object list) enqueues them.
enum QueueBenchmark {
    struct Figures: Sendable, Codable, Equatable {
        var jobs: Int
        var backlog: Int
        var claimers: Int
        var batch: Int
        var enqueueSeconds: Double
        var enqueuedPerSecond: Double
        var claimFinishSeconds: Double
        var jobsPerSecond: Double
    }

    static func run(
        on queue: any JobQueue, jobs: Int, backlog: Int = 0, claimers: Int, batch: Int = 1
    ) async throws -> Figures {
        let bucket = "queue-bench-\(Timestamp.now.milliseconds)"
        let clock = ContinuousClock()
        let enqueueStart = clock.now
        var pending: [NewJob] = []
        let warmUp = jobs / 10
        let total = warmUp + jobs + backlog
        for index in 0..<total {
            // Zero-padded, so path order is enqueue order, as in a backfill of a sorted listing.
            let path = "job-" + String(repeating: "0", count: max(0, 8 - String(index).count)) + String(index)
            pending.append(try NewJob(request: ObjectRequest(bucket: bucket, path: path), source: "none"))
            if pending.count == 1000 || index == total - 1 {
                _ = try await queue.enqueue(batch: pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try await queue.refreshStatistics()  // as `enqueue --walk` does after a backfill
        let enqueued = enqueueStart.duration(to: clock.now) / .seconds(1)
        // Untimed first: the database settles after the enqueue (SQLite checkpoints its write-ahead log).
        _ = try await claimAndFinish(warmUp, on: queue, claimers: claimers, batch: batch)
        let start = clock.now
        let finished = try await claimAndFinish(jobs, on: queue, claimers: claimers, batch: batch)
        let seconds = start.duration(to: clock.now) / .seconds(1)
        return Figures(
            jobs: finished, backlog: backlog, claimers: claimers, batch: batch, enqueueSeconds: enqueued,
            enqueuedPerSecond: Double(total) / enqueued, claimFinishSeconds: seconds,
            jobsPerSecond: Double(finished) / seconds)
    }

    /// Claims and finishes `jobs` jobs with `claimers` concurrent loops; returns how many were finished.
    private static func claimAndFinish(_ jobs: Int, on queue: any JobQueue, claimers: Int, batch: Int)
        async throws -> Int
    {
        let claimed = Claimed()
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for claimer in 0..<claimers {
                group.addTask {
                    var finished = 0
                    while true {
                        let wanted = min(batch, jobs - claimed.count.load(ordering: .relaxed))
                        guard wanted > 0 else { return finished }
                        let held = try await queue.claim(
                            owner: "bench-\(claimer)", limit: wanted, lease: .seconds(60))
                        guard !held.isEmpty else { return finished }
                        claimed.count.add(held.count, ordering: .relaxed)
                        let outcomes = held.map { job in
                            FinishedAttempt(
                                lease: job.lease,
                                outcome: .success(
                                    CompletionMetadata(
                                        bucket: job.job.bucket, path: job.job.path, size: 0,
                                        contentType: "application/octet-stream", checksumSha256: "")))
                        }
                        finished += try await queue.finish(outcomes).compactMap { $0 }.count
                    }
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// Jobs claimed so far by every claimer, so they stop together at `jobs`.
    private final class Claimed: Sendable {
        let count = Atomic<Int>(0)
    }
}
