import Foundation
import Testing
import Variants

@testable import VariantdCore

/// The behaviour both backends must share: each case is written once and runs on every available backend.
/// PostgreSQL-only behaviour (NOTIFY) is in `PostgresQueueTests`, SQLite-only in `SQLiteQueueTests`.
@Suite(.postgresServer) struct QueueContract {

    static let fast = JobAttemptPolicy(maxAttempts: 3, maxCrashes: 2, backoffUnit: .milliseconds(1))

    static func job(_ path: String, version: String = "") throws -> NewJob {
        try NewJob(
            request: ObjectRequest(bucket: "b", path: path), version: version,
            source: "pictures/gradient.jpg")
    }

    static let metadata = CompletionMetadata(
        bucket: "b", path: "p", size: 1, contentType: "image/jpeg", checksumSha256: "00")

    /// Claims one job, waiting out a short backoff, bounded.
    static func claimOne(_ queue: any JobQueue, owner: String = "w", lease: Duration = .seconds(30))
        async throws
        -> ClaimedJob
    {
        for _ in 0..<200 {
            if let claimed = try await queue.claim(owner: owner, limit: 1, lease: lease).first {
                return claimed
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw QueueError("nothing to claim within 2 s")
    }

    @Test(arguments: QueueBackend.available)
    func dedupesWhileWaitingOrRunning(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let first = try await queue.enqueue(try Self.job("a.jpg", version: "1"))
        let repeated = try await queue.enqueue(try Self.job("a.jpg", version: "1"))
        #expect(first.created && !repeated.created && repeated.id == first.id)
        let otherVersion = try await queue.enqueue(try Self.job("a.jpg", version: "2"))
        #expect(otherVersion.created && otherVersion.id != first.id)
        let claimed = try await Self.claimOne(queue)
        #expect(
            try await queue.enqueue(try Self.job(claimed.job.path, version: claimed.job.version)).created
                == false)
        _ = try await queue.finish(claimed.lease, with: .success(Self.metadata))
        // Once final, the same object can be enqueued again (a re-render).
        #expect(
            try await queue.enqueue(try Self.job(claimed.job.path, version: claimed.job.version)).created)
    }

    @Test(arguments: QueueBackend.available)
    func claimsEachJobOnce(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        for index in 0..<60 { _ = try await queue.enqueue(try Self.job("job-\(index)")) }
        let claimers = try await (0..<6).asyncMap { _ in try await open(Self.fast) }
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for (index, claimer) in claimers.enumerated() {
                group.addTask {
                    var ids: [Int64] = []
                    while true {
                        let batch = try await claimer.claim(owner: "c\(index)", limit: 2, lease: .seconds(30))
                        guard !batch.isEmpty else { return ids }
                        ids += batch.map(\.job.id)
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let running = try await queue.jobs(in: .running, limit: 1000)
        #expect(running.count == 60)
        #expect(claimed.count == 60 && Set(claimed) == Set(running.map(\.id)))
        for job in running {
            #expect(job.attempts == 1)
            #expect(try await queue.attempts(of: job.id).count == 1)
        }
    }

    @Test(arguments: QueueBackend.available)
    func fencesAStaleWorker(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let stale = try await open(Self.fast)
        let fresh = try await open(Self.fast)
        let id = try await stale.enqueue(try Self.job("fenced.jpg")).id
        let first = try await Self.claimOne(stale, owner: "stale", lease: .milliseconds(200))
        try await Task.sleep(for: .milliseconds(400))
        let second = try await Self.claimOne(fresh, owner: "fresh")
        #expect(second.job.id == id && second.lease.attempt == 2)
        #expect(second.lease.token > first.lease.token)
        #expect(try await stale.extend(first.lease, by: .seconds(30)) == nil)
        #expect(try await stale.finish(first.lease, with: .success(Self.metadata)) == nil)
        #expect(try await fresh.job(id: id)?.state == .running)
        #expect(try await fresh.extend(second.lease, by: .seconds(30)) != nil)
        let done = try await fresh.finish(second.lease, with: .success(Self.metadata))
        #expect(done?.state == .completed && done?.metadata == Self.metadata)
        #expect(try await stale.finish(first.lease, with: .success(Self.metadata)) == nil)
        let attempts = try await fresh.attempts(of: id)
        #expect(attempts.map(\.outcome) == ["lease_expired", "completed"])
        #expect(attempts.map(\.owner) == ["stale", "fresh"])
    }

    /// A worker cut off from the database past its lease (a failover) writes its outcome once the database
    /// answers: a claim has put the job back for its backoff, but nobody has claimed it since, so the work
    /// done is taken in place of the rescue's `lease_expired`. A rescue that made the job final (its last
    /// attempt: `discarded`, already announced) is not undone, and a job claimed again is another worker's.
    @Test(arguments: QueueBackend.available)
    func takesALateFinishWhileNobodyClaimedTheJobSince(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let slow = JobAttemptPolicy(maxAttempts: 3, maxCrashes: 2, backoffUnit: .seconds(5))
        let late = try await open(slow)
        let rescuer = try await open(slow)
        let id = try await late.enqueue(try Self.job("late.jpg")).id
        let first = try await Self.claimOne(late, owner: "late", lease: .milliseconds(100))
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await rescuer.claim(owner: "rescuer", limit: 1, lease: .seconds(30)).isEmpty)
        #expect(try await rescuer.job(id: id)?.state == .available)
        #expect(try await late.extend(first.lease, by: .seconds(30)) == nil)
        let done = try await late.finish(first.lease, with: .success(Self.metadata))
        #expect(done?.state == .completed && done?.metadata == Self.metadata && done?.attempts == 1)
        #expect(try await rescuer.attempts(of: id).map(\.outcome) == ["completed"])
        #expect(try await late.finish(first.lease, with: .success(Self.metadata)) == nil)

        let lastTry = try await open(
            JobAttemptPolicy(maxAttempts: 1, maxCrashes: 2, backoffUnit: .seconds(5)))
        let last = try await lastTry.enqueue(try Self.job("last.jpg")).id
        let only = try await Self.claimOne(late, owner: "late", lease: .milliseconds(100))
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await rescuer.claim(owner: "rescuer", limit: 1, lease: .seconds(30)).isEmpty)
        #expect(try await late.finish(only.lease, with: .success(Self.metadata)) == nil)
        #expect(try await rescuer.job(id: last)?.state == .discarded)
        #expect(try await rescuer.attempts(of: last).map(\.outcome) == ["lease_expired"])
    }

    @Test(arguments: QueueBackend.available)
    func retriesTransientFailuresThenDiscards(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let id = try await queue.enqueue(try Self.job("flaky.jpg")).id
        let busy = VariantsError(.internalError, "busy")
        for attempt in 1...3 {
            let claimed = try await Self.claimOne(queue)
            #expect(claimed.lease.attempt == attempt)
            let job = try #require(try await queue.finish(claimed.lease, with: .failure(busy)))
            #expect(job.error == busy)
            if attempt < 3 {
                #expect(job.state == .available && job.scheduledAt > (job.attemptedAt ?? job.createdAt))
            } else {
                #expect(job.state == .discarded && job.finishedAt != nil)
            }
        }
        #expect(try await queue.claim(owner: "w", limit: 1, lease: .seconds(30)).isEmpty)
        #expect(
            try await queue.attempts(of: id).map(\.outcome) == ["available", "available", "discarded"])
    }

    /// A worker writes `store_unavailable` back only when it is stopped while waiting out an outage (it
    /// otherwise waits under its lease): the attempt never reached the picture, so it is given back (the
    /// claim is still counted and logged), and restarts during a long outage cannot discard a job however
    /// many there are.
    @Test(arguments: QueueBackend.available)
    func aStoreOutageSpendsNoAttempt(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let id = try await queue.enqueue(try Self.job("outage.jpg")).id
        let outage = VariantsError(.storeUnavailable, "object storage unavailable")
        let stops = Self.fast.maxAttempts + 1
        for stop in 1...stops {
            let claimed = try await Self.claimOne(queue)
            let job = try #require(try await queue.finish(claimed.lease, with: .failure(outage)))
            #expect(job.state == .available && job.error == outage)
            #expect(job.attempts == stop && job.maxAttempts == Self.fast.maxAttempts + stop)
        }
        let last = try await Self.claimOne(queue)
        #expect(try await queue.finish(last.lease, with: .success(Self.metadata))?.state == .completed)
        #expect(try await queue.attempts(of: id).map(\.attempt) == Array(1...(stops + 1)))
    }

    @Test(arguments: QueueBackend.available)
    func makesDeterministicOutcomesFinalAtOnce(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let cases: [(VariantsError, JobState)] = [
            (.unreadable(.truncated, "ends early"), .unreadable),
            (VariantsError(.unsupportedMediaType, "bmp"), .failed),
            (VariantsError(.notFound, "gone"), .failed),
        ]
        for (index, (error, state)) in cases.enumerated() {
            _ = try await queue.enqueue(try Self.job("final-\(index).jpg"))
            let claimed = try await Self.claimOne(queue)
            let job = try #require(try await queue.finish(claimed.lease, with: .failure(error)))
            #expect(job.state == state && job.attempts == 1 && job.error == error)
        }
    }

    @Test(arguments: QueueBackend.available)
    func makesAJobUnreadableAfterTwoDecoderCrashes(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        _ = try await queue.enqueue(try Self.job("poison.heic"))
        let crash = VariantsError.unreadable(.decoderCrash, "signal 6")
        let first = try await Self.claimOne(queue)
        let retried = try #require(try await queue.finish(first.lease, with: .failure(crash)))
        #expect(retried.state == .available && retried.crashes == 1)
        let second = try await Self.claimOne(queue)
        let final = try #require(
            try await queue.finish(second.lease, with: .failure(.unreadable(.decoderTimeout, "slow"))))
        #expect(final.state == .unreadable && final.crashes == 2 && final.attempts == 2)
        #expect(final.error?.reason == .decoderTimeout)
    }

    /// One decoder death is retried as a transient failure (load or a stop can cause it), so on the last
    /// attempt it leaves the job `discarded`, as another transient error would: `unreadable` says the picture
    /// cannot be rendered, which one death does not show.
    @Test(arguments: QueueBackend.available)
    func aFirstDecoderCrashOnTheLastAttemptDiscards(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let id = try await queue.enqueue(try Self.job("unlucky.jpg")).id
        for _ in 1..<Self.fast.maxAttempts {
            let claimed = try await Self.claimOne(queue)
            _ = try await queue.finish(claimed.lease, with: .failure(VariantsError(.internalError, "busy")))
        }
        let last = try await Self.claimOne(queue)
        let crash = VariantsError.unreadable(.decoderCrash, "signal 9")
        let job = try #require(try await queue.finish(last.lease, with: .failure(crash)))
        #expect(job.state == .discarded && job.crashes == 1 && job.attempts == Self.fast.maxAttempts)
        #expect(try await queue.attempts(of: id).last?.outcome == "discarded")
    }

    @Test(arguments: QueueBackend.available)
    func migratesOnceAndKeepsJobs(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let id = try await queue.enqueue(try Self.job("kept.jpg")).id
        let reopened = try await (0..<4).asyncMapConcurrently { _ in try await open(Self.fast) }
        for other in reopened {
            #expect(try await backend.schemaVersions(other) == [1, 2, 3, 4])
            #expect(try await other.job(id: id)?.path == "kept.jpg")
        }
    }

    @Test(arguments: QueueBackend.available)
    func reportsAndListsFinalJobs(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let id = try await queue.enqueue(try Self.job("report.jpg")).id
        let claimed = try await Self.claimOne(queue)
        _ = try await queue.finish(claimed.lease, with: .success(Self.metadata))
        #expect(try await queue.unreported(after: .oldest, limit: 10).map(\.id) == [id])
        try await queue.markReported(id: id)
        #expect(try await queue.unreported(after: .oldest, limit: 10).isEmpty)
        #expect(try await queue.job(id: id)?.reportedAt != nil)
        #expect(try await queue.jobs(in: .completed, limit: 10).map(\.id) == [id])
        #expect(try await queue.jobs(in: .available, limit: 10).isEmpty)
    }

    /// The callback sweep reads the unreported jobs a page at a time from a cursor: every one comes once, in
    /// (finished_at, id) order, the jobs of one finish transaction (one time) included, the reported ones left
    /// out.
    @Test(arguments: QueueBackend.available)
    func walksUnreportedJobsPageByPageFromACursor(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        _ = try await queue.enqueue(batch: try (0..<7).map { try Self.job("walk-\($0).jpg") })
        let claimed = try await queue.claim(owner: "w", limit: 7, lease: .seconds(30))
        #expect(claimed.count == 7)
        let (together, apart) = (claimed.prefix(5), claimed.suffix(2))
        _ = try await queue.finish(
            together.map { FinishedAttempt(lease: $0.lease, outcome: .success(Self.metadata)) })
        for job in apart {
            try await Task.sleep(for: .milliseconds(5))
            _ = try await queue.finish(job.lease, with: .success(Self.metadata))
        }
        let reported = try #require(together.first).job.id
        try await queue.markReported(id: reported)
        let expected = together.map(\.job.id).filter { $0 != reported }.sorted() + apart.map(\.job.id)
        #expect(try await queue.unreported(after: .oldest, limit: 10).map(\.id) == expected)
        var walked: [Int64] = []
        var cursor = UnreportedCursor.oldest
        for _ in 0..<10 {
            let page = try await queue.unreported(after: cursor, limit: 2)
            walked += page.map(\.id)
            guard page.count == 2, let last = page.last else { break }
            cursor = try #require(UnreportedCursor(after: last))
        }
        #expect(walked == expected)
    }

    @Test(arguments: QueueBackend.available)
    func enqueuesABatchOnceAndAddsOnlyWhatIsMissing(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let first = try (0..<1500).map { try Self.job("batch-\($0)") }
        // A key repeated inside one batch is added once.
        let repeated = try [Self.job("batch-0"), Self.job("batch-0")]
        #expect(try await queue.enqueue(batch: repeated) == EnqueuedBatch(added: 1, alreadyQueued: 1))
        #expect(
            try await queue.enqueue(batch: first) == EnqueuedBatch(added: 1499, alreadyQueued: 1))
        let claimed = try await queue.claim(owner: "w", limit: 10, lease: .seconds(30))
        #expect(claimed.count == 10)
        for job in claimed.prefix(5) {
            _ = try await queue.finish(job.lease, with: .success(Self.metadata))
        }
        // Running again: the five final ones are re-rendered, everything waiting or running is left alone.
        let again = try (0..<1600).map { try Self.job("batch-\($0)") }
        let second = try await queue.enqueue(batch: again)
        #expect(second == EnqueuedBatch(added: 105, alreadyQueued: 1495))
        #expect(try await queue.enqueue(batch: []) == EnqueuedBatch())
    }

    @Test(arguments: QueueBackend.available)
    func aBatchKeepsEveryPathAsWrittenAcrossItsStatements(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        // What an array literal or a multi-row statement could mangle, then enough plain paths that the
        // batch spans several statements with a tail, and a key repeated across them.
        let awkward = [
            #"quote"d.jpg"#, #"back\slash.jpg"#, "comma,brace{}.jpg", "NULL", "space d/été 写真.jpg", #"\""#,
        ]
        let plain = (0..<243).map { "plain-\($0).jpg" }
        let paths = awkward + plain + ["plain-0.jpg", "plain-150.jpg"]
        let added = try await queue.enqueue(batch: try paths.map { try Self.job($0) })
        #expect(added == EnqueuedBatch(added: awkward.count + plain.count, alreadyQueued: 2))
        let stored = try await queue.jobs(JobFilter(), after: 0, limit: 1000).map(\.path)
        #expect(stored.sorted() == (awkward + plain).sorted())
    }

    @Test(arguments: QueueBackend.available)
    func finishesABatchInOneWrite(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        _ = try await queue.enqueue(batch: try (0..<4).map { try Self.job("together-\($0)") })
        let claimed = try await queue.claim(owner: "w", limit: 4, lease: .seconds(30))
        #expect(claimed.count == 4)
        var stale = claimed[3].lease
        stale.token += 1_000_000
        let jobs = try await queue.finish([
            FinishedAttempt(lease: claimed[0].lease, outcome: .success(Self.metadata)),
            FinishedAttempt(
                lease: claimed[1].lease, outcome: .failure(VariantsError(.internalError, "store away"))),
            FinishedAttempt(
                lease: claimed[2].lease, outcome: .failure(.unreadable(.decoderCrash, "signal 11"))),
            FinishedAttempt(lease: stale, outcome: .success(Self.metadata)),
        ])
        #expect(jobs.map { $0?.id } == [claimed[0].job.id, claimed[1].job.id, claimed[2].job.id, nil])
        #expect(jobs.map { $0?.state } == [.completed, .available, .available, nil])
        #expect(jobs[2]?.crashes == 1 && jobs[0]?.metadata == Self.metadata)
        #expect(try await queue.job(id: claimed[3].job.id)?.state == .running)
        #expect(try await queue.attempts(of: claimed[0].job.id).map(\.outcome) == ["completed"])
        #expect(try await queue.attempts(of: claimed[3].job.id).map(\.outcome) == [nil])
        #expect(try await queue.finish([]).isEmpty)
    }

    @Test(arguments: QueueBackend.available)
    func pagesThroughJobsByStateAndBucket(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        let jobs = try (0..<1200).map { index in
            try NewJob(
                request: ObjectRequest(bucket: index % 3 == 0 ? "three" : "other", path: "page-\(index)"),
                source: "pictures/gradient.jpg")
        }
        _ = try await queue.enqueue(batch: jobs)
        var seen: [Job] = []
        var cursor: Int64 = 0
        while true {
            let page = try await queue.jobs(JobFilter(bucket: "three"), after: cursor, limit: 150)
            guard let last = page.last else { break }
            #expect(page.count <= 150)
            seen += page
            cursor = last.id
        }
        #expect(seen.count == 400 && seen.allSatisfy { $0.bucket == "three" })
        #expect(seen.map(\.id) == seen.map(\.id).sorted() && Set(seen.map(\.id)).count == 400)
        let claimed = try await queue.claim(owner: "w", limit: 7, lease: .seconds(30))
        let running = try await queue.jobs(JobFilter(state: .running), after: 0, limit: 100)
        #expect(Set(running.map(\.id)) == Set(claimed.map(\.job.id)))
        let none = try await queue.jobs(JobFilter(state: .running, bucket: "absent"), after: 0, limit: 100)
        #expect(none.isEmpty)
    }

    @Test(arguments: QueueBackend.available)
    func purgesOldFinalJobsWithTheirAttempts(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let queue = try await open(Self.fast)
        _ = try await queue.enqueue(batch: try (0..<30).map { try Self.job("old-\($0)") })
        let claimed = try await queue.claim(owner: "w", limit: 25, lease: .seconds(30))
        for job in claimed {
            _ = try await queue.finish(job.lease, with: .success(Self.metadata))
        }
        let ids = claimed.map(\.job.id)
        try await Task.sleep(for: .milliseconds(20))
        // Nothing finished before an hour ago.
        #expect(try await queue.purge(finishedBefore: Timestamp.now.adding(.seconds(-3600)), limit: 10) == 0)
        let cutoff = Timestamp.now
        var purged: [Int] = []
        while true {
            let count = try await queue.purge(finishedBefore: cutoff, limit: 10)
            purged.append(count)
            if count < 10 { break }
        }
        #expect(purged == [10, 10, 5])
        for id in ids {
            #expect(try await queue.job(id: id) == nil)
            #expect(try await queue.attempts(of: id).isEmpty)
        }
        // Waiting and running jobs stay.
        #expect(try await queue.jobs(in: .available, limit: 100).count == 5)
    }

    @Test(arguments: QueueBackend.available)
    func wakesAWaitingWorkerOnEnqueue(backend: QueueBackend) async throws {
        let (open, remove) = try backend.create()
        defer { remove() }
        let waiter = try await open(Self.fast)
        let producer = try await open(Self.fast)
        let clock = ContinuousClock()
        let started = clock.now
        async let waited: Void = waiter.waitForWork(upTo: .seconds(120))
        try await Task.sleep(for: .seconds(1))
        _ = try await producer.enqueue(try Self.job("wake.jpg"))
        await waited
        // Woken by the enqueue, not by the 120 s backstop; the margin is wide because the whole suite runs
        // in parallel on two cores, which can starve the waiter's polling for seconds.
        #expect(started.duration(to: clock.now) < .seconds(60))
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }

    func asyncMapConcurrently<T: Sendable>(
        _ transform: @escaping @Sendable (Element) async throws -> T
    ) async throws
        -> [T]
    {
        try await withThrowingTaskGroup(of: T.self) { group in
            for element in self { group.addTask { try await transform(element) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
