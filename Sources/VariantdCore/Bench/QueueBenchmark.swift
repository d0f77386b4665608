import Variants

/// Claim + finish throughput of no-op jobs on one queue, for the benchmark: enqueues `jobs` jobs in a
/// bucket of their own, then `claimers` concurrent loops claim and complete them one at a time.
public enum QueueBenchmark {
    public struct Figures: Sendable, Codable, Equatable {
        public var jobs: Int
        public var claimers: Int
        public var enqueueSeconds: Double
        public var claimFinishSeconds: Double
        public var jobsPerSecond: Double
    }

    public static func run(on queue: any JobQueue, jobs: Int, claimers: Int) async throws -> Figures {
        let bucket = "queue-bench-\(Timestamp.now.milliseconds)"
        let clock = ContinuousClock()
        let enqueueStart = clock.now
        for index in 0..<jobs {
            _ = try await queue.enqueue(
                try NewJob(request: ObjectRequest(bucket: bucket, path: "job-\(index)"), source: "none"))
        }
        let enqueued = enqueueStart.duration(to: clock.now)
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for claimer in 0..<claimers {
                group.addTask {
                    while let claimed = try await queue.claim(
                        owner: "bench-\(claimer)", limit: 1, lease: .seconds(60)
                    ).first {
                        let metadata = CompletionMetadata(
                            bucket: claimed.job.bucket, path: claimed.job.path, size: 0,
                            contentType: "application/octet-stream", checksumSha256: "")
                        _ = try await queue.finish(claimed.lease, with: .success(metadata))
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = start.duration(to: clock.now) / .seconds(1)
        return Figures(
            jobs: jobs, claimers: claimers, enqueueSeconds: enqueued / .seconds(1),
            claimFinishSeconds: seconds,
            jobsPerSecond: Double(jobs) / seconds)
    }
}
