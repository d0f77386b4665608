public import Variants

/// A durable job queue: what `variantd work`, `variantd enqueue`, `variantd jobs` and the daemon's
/// `POST /v1/jobs?async=1` and storage events use, whichever database holds it, with the index of which
/// object holds which bytes beside it.
///
/// Delivery is at least once; completion is at most once. A claim hands out a lease with a fencing token,
/// and every later change is conditional on that token, so a worker that lost its lease (it hung, or its
/// lease expired and another worker claimed the job) can never finish the job.
public protocol JobQueue: ObjectIndex, TransformAllowance {
    /// Adds a job, or finds the one already available or running for the same (bucket, path, version).
    /// Returns only after the job is committed durably.
    func enqueue(_ job: NewJob) async throws(QueueError) -> Enqueued

    /// Adds many jobs in one transaction, leaving alone those already available or running for the same
    /// (bucket, path, version) — a repeat within `jobs` included. Returns only after the commit.
    func enqueue(batch jobs: [NewJob]) async throws(QueueError) -> EnqueuedBatch

    /// Called after a backfill added many jobs at once, so that claims keep their cost. PostgreSQL's planner
    /// estimates the waiting jobs from statistics taken before the backfill (or none, on a new table): told
    /// few jobs wait, it claims through a scan and sort of every waiting job instead of the due index's
    /// first rows, until autovacuum analyses the table; the statistics are refreshed now (`ANALYZE`).
    /// SQLite's claim names its index and needs nothing.
    func refreshStatistics() async throws(QueueError)

    /// Claims up to `limit` jobs that are due, for `owner`, each with a lease of `lease`. Jobs whose leases
    /// expired are first returned to `available` (or made final when out of attempts). Only the oldest
    /// unfinished job of an object is claimed: the jobs of one object run one at a time, in the order they
    /// came, so the last one sees the object's last state.
    func claim(owner: String, limit: Int, lease: Duration) async throws(QueueError) -> [ClaimedJob]

    /// Extends a lease; nil when it was lost, and the worker must throw away its result.
    func extend(_ lease: Lease, by duration: Duration) async throws(QueueError) -> Lease?

    /// Records attempts' outcomes and moves each job on per the retry policy, all in one transaction (one
    /// commit for many jobs). Returns the updated jobs in the same order, nil for a job whose lease was
    /// lost: that job was not changed.
    func finish(_ attempts: [FinishedAttempt]) async throws(QueueError) -> [Job?]

    func job(id: Int64) async throws(QueueError) -> Job?

    /// Up to `limit` jobs matching `filter` with an id above `cursor`, in id order: one page of a listing
    /// that is read page by page (the next cursor is the last id), never whole.
    func jobs(_ filter: JobFilter, after cursor: Int64, limit: Int) async throws(QueueError) -> [Job]

    /// Deletes up to `limit` final jobs that finished before `cutoff`, with their attempt log, in one short
    /// transaction; returns how many went. Callers repeat it until it returns less than `limit`.
    func purge(finishedBefore cutoff: Timestamp, limit: Int) async throws(QueueError) -> Int

    /// Up to `limit` final jobs whose result has not been reported to the callback yet, after `cursor` in
    /// (finished_at, id) order: one page of a walk that goes on from the last job returned.
    func unreported(after cursor: UnreportedCursor, limit: Int) async throws(QueueError) -> [Job]

    /// Records that the callback acknowledged a final job's result.
    func markReported(id: Int64) async throws(QueueError)

    /// The attempt log of one job, oldest first.
    func attempts(of id: Int64) async throws(QueueError) -> [JobAttempt]

    /// Returns when new work may be due, or after `timeout` at the latest (the polling backstop).
    func waitForWork(upTo timeout: Duration) async

    /// How many jobs are in each state (states without jobs are absent), for metrics.
    func stateCounts() async throws(QueueError) -> [JobState: Int]
}

extension JobQueue {
    /// Records one attempt's outcome; nil when the lease was lost (nothing was changed).
    public func finish(_ lease: Lease, with outcome: Result<CompletionMetadata, VariantsError>)
        async throws(QueueError) -> Job?
    {
        try await finish([FinishedAttempt(lease: lease, outcome: outcome)]).first ?? nil
    }

    /// The first `limit` jobs in one state (every state when nil), oldest first.
    public func jobs(in state: JobState?, limit: Int) async throws(QueueError) -> [Job] {
        try await jobs(JobFilter(state: state), after: 0, limit: limit)
    }
}
