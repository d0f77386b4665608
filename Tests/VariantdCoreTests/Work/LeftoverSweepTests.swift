import Testing
import Variants

@testable import VariantdCore

/// The sweep that reports final jobs left unreported: a receiver refusing more old jobs than a page holds
/// must not keep a newer job from being reported.
@Suite(.postgresServer) struct LeftoverSweepTests {
    @Test(arguments: QueueBackend.available)
    func refusedOldJobsDoNotHoldBackANewerOne(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(QueueContract.fast)
        let refusedCount = LeftoverSweep.page + 1
        _ = try await queue.enqueue(
            batch: try (0..<refusedCount).map { try QueueContract.job("refused-\($0).jpg") })
        let old = try await queue.claim(owner: "gone", limit: refusedCount, lease: .seconds(30))
        _ = try await queue.finish(
            old.map { FinishedAttempt(lease: $0.lease, outcome: .success(QueueContract.metadata)) })
        try await Task.sleep(for: .milliseconds(5))
        let newer = try await queue.enqueue(try QueueContract.job("accepted.jpg")).id
        _ = try await queue.finish(
            try await QueueContract.claimOne(queue, owner: "gone").lease,
            with: .success(QueueContract.metadata))
        try await Task.sleep(for: .milliseconds(5))

        // The receiver answers 4xx for the old jobs and acknowledges the newer one.
        var sweep = LeftoverSweep(queue: queue, age: .zero)
        var tried: [Int64] = []
        for _ in 0..<2 {
            for job in try await sweep.next() {
                tried.append(job.id)
                if job.id == newer { try await queue.markReported(id: job.id) }
            }
        }
        #expect(try await queue.job(id: newer)?.reportedAt != nil)
        #expect(tried.count == refusedCount + 1 && Set(tried).count == tried.count)
        // The pass is over: the next starts again from the oldest, the refused jobs tried once more.
        #expect(
            try await sweep.next().map(\.id) == Array(old.map(\.job.id).sorted().prefix(LeftoverSweep.page)))
    }

    @Test func jobsYoungerThanTheAgeAreLeftToTheirWorker() async throws {
        let (open, remove) = try QueueBackend.sqlite.create()
        defer { remove() }
        let queue = try await open(QueueContract.fast)
        _ = try await queue.enqueue(try QueueContract.job("young.jpg"))
        _ = try await queue.finish(
            try await QueueContract.claimOne(queue).lease, with: .success(QueueContract.metadata))
        var sweep = LeftoverSweep(queue: queue, age: .seconds(60))
        #expect(try await sweep.next().isEmpty)
    }
}
