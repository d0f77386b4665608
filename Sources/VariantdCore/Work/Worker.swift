import Foundation
import Variants

/// The loop behind `variantd work`: one claim loop takes as many jobs as there are free slots in one claim
/// (a batch when several are free), and each job runs in a slot of its own — decoded in a decoder child,
/// its lease heartbeated meanwhile, its result written back under the lease's fencing token. A stop
/// request ends claiming; held jobs are finished first.
struct Worker: Sendable {
    struct Configuration: Sendable {
        /// Where job sources are read from.
        var objects: any ObjectStore
        /// Reloaded when its files change, so an edited declaration applies without a restart; a job for a
        /// bucket with no declaration reports metadata and renders no variant.
        var buckets: BucketRegistry
        /// Where renditions are stored, and forgotten when no object holds their bytes any more.
        var renditions: any RenditionCatalog
        var slots: Int
        var lease: Duration = .seconds(60)
        /// The polling backstop when no notification arrives.
        var poll: Duration = .seconds(1)
        /// Exit once no job is available or running, instead of waiting for more.
        var untilIdle = false
        var callback: CallbackReporter?
        /// Final jobs left unreported this long (their worker died before its callback) are reported by
        /// whichever worker is idle.
        var reportSweepAge: Duration = .seconds(30)
        /// Final jobs are deleted, with their attempt log, once they finished longer ago than this; nil
        /// keeps them forever.
        var retain: Duration? = .seconds(7 * 86_400)
        /// How often old final jobs are looked for.
        var retentionInterval: Duration = .seconds(60)
        /// How often the bucket declaration files are checked for changes.
        var bucketCheck: Duration = .seconds(1)
        /// The file remembering sources that killed decoders; nil keeps it in memory.
        var quarantine: String?
        /// Where the worker's JSON lines go: `variantd work` prints them; the daemon's workers write them
        /// into its own log, beside its other lines.
        var log: Log = .standardOutput
    }

    enum Log: Sendable {
        case standardOutput
        case daemon

        func write(_ event: WorkEvent) {
            switch self {
            case .standardOutput:
                if let line = try? WireJSON.line(event) { Console.out(line) }
            case .daemon:
                EventLog.write(event)
            }
        }
    }

    /// How a job whose object or rendition store is down is tried again under its lease: 0.5 s, 1 s, 2 s … up
    /// to 30 s apart, until the store answers or the worker stops.
    static let storeOutage = RetrySchedule(tries: nil, first: .milliseconds(500), cap: .seconds(30))

    /// Final jobs deleted per transaction: small, so a claim never waits long behind a purge.
    static let purgeBatch = 500

    let queue: any JobQueue
    let configuration: Configuration
    let pool: PipelinePool
    let finisher: FinishBatcher
    /// What `--listen` reports; counted whether or not anything listens.
    let metrics = WorkerMetrics()
    let owner: String
    let stop: any StopRequest

    init(queue: any JobQueue, configuration: Configuration, stop: any StopRequest) {
        self.queue = queue
        self.configuration = configuration
        self.stop = stop
        finisher = FinishBatcher(queue: queue)
        // The queue counts attempts itself (a decoder crash or timeout is final after two), so the pool
        // makes one attempt per claim.
        pool = PipelinePool(
            .init(
                executable: Executable.current, size: configuration.slots, attemptsPerObject: 1,
                quarantineFile: configuration.quarantine),
            objects: configuration.objects, renditions: configuration.renditions)
        owner =
            "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8))"
    }

    func run() async {
        let watcher = Task { await watchBuckets() }
        let slots = FreeSlots(configuration.slots)
        let retention = Task { await purgeOldJobs() }
        let sweep = Task { await reportLeftovers(whenIdle: slots) }
        await withDiscardingTaskGroup { group in
            while !stop.isRequested {
                let wanted = await slots.waitForAny()
                guard !stop.isRequested else { break }
                if finisher.holdsUnwritten {
                    try? await Task.sleep(for: configuration.poll)
                    continue
                }
                let claimed: [ClaimedJob]
                let claiming = ContinuousClock.now
                do throws(QueueError) {
                    claimed = try await queue.claim(owner: owner, limit: wanted, lease: configuration.lease)
                    metrics.claimed(after: claiming.duration(to: .now) / .seconds(1))
                } catch {
                    metrics.queueWriteFailed()
                    log(WorkEvent(event: "queue_error", message: error.message))
                    try? await Task.sleep(for: configuration.poll)
                    continue
                }
                for job in claimed {
                    slots.take()
                    group.addTask {
                        await process(job)
                        slots.give()
                    }
                }
                guard claimed.isEmpty else { continue }
                if configuration.untilIdle, slots.free == slots.total, await isIdle() { break }
                await queue.waitForWork(upTo: configuration.poll)
            }
        }
        sweep.cancel()
        retention.cancel()
        watcher.cancel()
        await pool.shutdown()
    }

    /// Reads the bucket declarations again — at once (SIGHUP: `systemctl reload`, as for the daemon), or
    /// `onlyIfChanged` their files — and says so; a broken set keeps the previous one.
    static func reloadBuckets(
        _ buckets: BucketRegistry, onlyIfChanged: Bool = false, log: Log = .standardOutput
    ) {
        do {
            guard let count = onlyIfChanged ? try buckets.reloadIfChanged() : try buckets.reload() else {
                return
            }
            log.write(WorkEvent(event: "buckets_reloaded", message: "\(count) bucket declarations"))
        } catch {
            log.write(WorkEvent(event: "buckets_reload_failed", message: error.message))
        }
    }

    /// Reloads the bucket declarations when their files change.
    private func watchBuckets() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.bucketCheck)
            Self.reloadBuckets(configuration.buckets, onlyIfChanged: true, log: configuration.log)
        }
    }

    /// Deletes final jobs older than the retention, a small batch per transaction, every
    /// `retentionInterval` until the worker stops.
    private func purgeOldJobs() async {
        guard let retain = configuration.retain else { return }
        while !Task.isCancelled, !stop.isRequested {
            var purged = 0
            let cutoff = Timestamp.now.adding(.zero - retain)
            while !Task.isCancelled {
                do {
                    let count = try await queue.purge(finishedBefore: cutoff, limit: Self.purgeBatch)
                    purged += count
                    if count < Self.purgeBatch { break }
                    await Task.yield()
                } catch {
                    log(WorkEvent(event: "queue_error", message: error.message))
                    break
                }
            }
            if purged > 0 {
                var event = WorkEvent(event: "jobs_purged")
                event.count = purged
                log(event)
            }
            try? await Task.sleep(for: configuration.retentionInterval)
        }
    }

    /// What ends a job's slot first: its decode, or its heartbeat finding the lease lost.
    private enum Attempt: Sendable {
        case rendered(Result<CompletionMetadata, VariantsError>)
        case leaseLost
    }

    private func process(_ claimed: ClaimedJob) async {
        let started = ContinuousClock.now
        // The first to end decides, and the other is cancelled: a lost lease kills the decoder child at once,
        // so nothing more is stored or written back for an attempt that is no longer this worker's.
        let attempt = await withTaskGroup(of: Attempt?.self) { group in
            group.addTask { await heartbeat(claimed.lease) ? .leaseLost : nil }
            group.addTask { .rendered(await render(claimed.job)) }
            for await case let attempt? in group {
                group.cancelAll()
                return attempt
            }
            return .leaseLost
        }
        var event = WorkEvent(event: "job_finished", job: claimed.job.id)
        event.attempt = claimed.lease.attempt
        let written: FinishBatcher.Written
        switch attempt {
        case .rendered(let outcome):
            if case .failure(let error) = outcome { event.error = error }
            written = await finish(claimed.lease, outcome)
        case .leaseLost:
            written = .leaseLost
        }
        switch written {
        case .finished(let job):
            metrics.queueWriteSucceeded()
            event.state = job.state
            metrics.finished(job.state, code: event.error?.code.rawValue ?? "ok")
        case .leaseLost:
            event.event = "lease_lost"
            metrics.leaseLost()
        case .unwritten:
            event.event = "outcome_unwritten"
            event.message = "stopped before the database answered: the job runs again once its lease expires"
        }
        event.durationSeconds = started.duration(to: .now) / .seconds(1)
        log(event)
        if case .finished(let job) = written, job.state.isFinal { await report(job) }
    }

    /// Runs the job; an object or rendition store that is down or full (`store_unavailable` or
    /// `insufficient_storage`, which the pool answers for nothing else here) is waited out under the same
    /// lease, trying again with capped backoff until the store answers or the worker is asked to stop, so an
    /// outage costs the job no attempt.
    private func render(_ job: Job) async -> Result<CompletionMetadata, VariantsError> {
        let order = RenditionOrder(job.request, bucket: configuration.buckets.bucket(named: job.bucket))
        let outcome = await Self.storeOutage.run {
            let outcome = await pool.fulfil(order, from: .stored(job.source)).outcome
            guard case .failure(let error) = outcome, error.code.isStoreOutage, !stop.isRequested,
                !Task.isCancelled
            else { return .done(outcome) }
            log(WorkEvent(event: error.code.rawValue, job: job.id, message: error.message))
            return .retry(outcome)
        }
        if !Task.isCancelled { await reconcile(job, outcome) }
        return outcome
    }

    /// Keeps the object index to what the job found — the object's bytes, or that it is gone — and removes
    /// the renditions of bytes no object holds any more. A job is a look at the object as it is now, so a
    /// storage event that arrives late, twice or out of order leaves the right state: the object's jobs run
    /// one at a time, in order, and the last one sees its last state. What cannot be written here (the
    /// database or the store away) is left for `variantd gc`.
    private func reconcile(_ job: Job, _ outcome: Result<CompletionMetadata, VariantsError>) async {
        let orphaned: String?
        do throws(QueueError) {
            switch outcome {
            case .success(let metadata):
                orphaned = try await queue.record(
                    bucket: job.bucket, path: job.path, checksum: metadata.checksumSha256)
            case .failure(let error) where error.code == .notFound:
                orphaned = try await queue.forget(bucket: job.bucket, path: job.path)
            case .failure:
                return
            }
        } catch {
            log(WorkEvent(event: "queue_error", job: job.id, message: error.message))
            return
        }
        guard let orphaned else { return }
        let renditions = configuration.renditions
        switch await Blocking.run({ () throws(VariantsError) in
            try renditions.forget(sourceChecksum: orphaned)
        }) {
        case .success(let count):
            var event = WorkEvent(event: "renditions_forgotten", job: job.id, message: orphaned)
            event.count = count
            log(event)
        case .failure(let error):
            log(WorkEvent(event: "renditions_unforgotten", job: job.id, message: error.message))
        }
    }

    /// Extends the lease every quarter of its length until cancelled or lost; true when lost.
    private func heartbeat(_ lease: Lease) async -> Bool {
        var lease = lease
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.lease / 4)
            guard !Task.isCancelled else { break }
            do {
                guard let extended = try await queue.extend(lease, by: configuration.lease) else {
                    return true
                }
                lease = extended
            } catch {
                log(WorkEvent(event: "queue_error", job: lease.jobID, message: error.message))
            }
        }
        return false
    }

    /// Writes the outcome back, waiting out a database outage however long, as `render` waits out a store's,
    /// and giving way to a stop as it does; `queue_error` is logged on the 1st, 2nd, 4th, 8th … failed try,
    /// not on every one.
    private func finish(_ lease: Lease, _ outcome: Result<CompletionMetadata, VariantsError>) async
        -> FinishBatcher.Written
    {
        await finisher.finish(
            FinishedAttempt(lease: lease, outcome: outcome), stopping: { stop.isRequested },
            failed: { error, tries in
                metrics.queueWriteFailed()
                if tries & (tries - 1) == 0 {
                    log(WorkEvent(event: "queue_error", job: lease.jobID, message: error.message))
                }
            })
    }

    private func report(_ job: Job) async {
        guard let callback = configuration.callback else { return }
        if await callback.report(job) {
            try? await queue.markReported(id: job.id)
        } else {
            log(WorkEvent(event: "callback_failed", job: job.id))
            metrics.callbackFailed()
        }
    }

    /// Reports final jobs whose worker died between finishing and reporting, a page of the sweep every poll
    /// while no slot is busy, until the worker stops. Beside the claim loop, not in it: a receiver that is
    /// down costs each report its tries and backoff, which would otherwise hold up every new job and the stop.
    private func reportLeftovers(whenIdle slots: FreeSlots) async {
        guard configuration.callback != nil else { return }
        var leftovers = LeftoverSweep(queue: queue, age: configuration.reportSweepAge)
        while !Task.isCancelled, !stop.isRequested {
            if slots.free == slots.total, let jobs = try? await leftovers.next() {
                for job in jobs where !Task.isCancelled { await report(job) }
            }
            try? await Task.sleep(for: configuration.poll)
        }
    }

    private func isIdle() async -> Bool {
        guard let available = try? await queue.jobs(in: .available, limit: 1),
            let running = try? await queue.jobs(in: .running, limit: 1)
        else { return false }
        return available.isEmpty && running.isEmpty
    }

    private func log(_ event: WorkEvent) {
        configuration.log.write(event)
    }
}

/// One JSON line `variantd work` prints per event: a finished attempt, a lost lease, an outcome given up at a
/// stop, a queue or callback failure, a kernel without Landlock at start-up.
struct WorkEvent: Encodable {
    var event: String
    var job: Int64?
    var attempt: Int?
    var state: JobState?
    var error: VariantsError?
    var durationSeconds: Double?
    var message: String?
    /// Jobs deleted by retention.
    var count: Int?
    /// Where `--listen` serves health and metrics (the `listening` event).
    var listen: String?

    init(event: String, job: Int64? = nil, message: String? = nil) {
        self.event = event
        self.job = job
        self.message = message
    }
}
