/// A worker's hold on a running job. The token is the fencing token: every later change to the job
/// (extend, finish) is conditional on it, so a worker whose lease expired and was handed to another
/// worker can never change the job again.
public struct Lease: Sendable, Equatable, Hashable {
    public var jobID: Int64
    public var token: Int64
    public var owner: String
    /// The attempt this lease is for (1 for the first claim).
    public var attempt: Int
    /// The job's attempt limit and its decoder crashes before this attempt: only the lease holder can
    /// change them, so a finish decides the job's next state from these without reading the row first.
    public var maxAttempts: Int
    public var crashes: Int
    public var expiresAt: Timestamp
}

extension ClaimedJob {
    /// The claim of a job just updated to `running` under `owner`'s lease.
    init(claimed job: Job, owner: String) throws(QueueError) {
        guard let token = job.leaseToken, let expires = job.leaseExpiresAt else {
            throw QueueError("job \(job.id) was claimed without a lease")
        }
        self.job = job
        lease = Lease(
            jobID: job.id, token: token, owner: owner, attempt: job.attempts, maxAttempts: job.maxAttempts,
            crashes: job.crashes, expiresAt: expires)
    }
}

/// A job just claimed, with the lease that lets its worker finish it.
public struct ClaimedJob: Sendable, Equatable {
    public var job: Job
    public var lease: Lease
}

/// One claim in the attempt log: who held the job under which token, and how that attempt ended. A
/// finish is recorded here in the same transaction as the job's change, so counting finished attempts
/// counts completions.
public struct JobAttempt: Sendable, Equatable, Codable {
    public var token: Int64
    public var jobID: Int64
    public var attempt: Int
    public var owner: String
    public var claimedAt: Timestamp
    public var finishedAt: Timestamp?
    /// The state the job went to (`available` for a retry), or `lease_expired`; nil while running or when
    /// the worker vanished before its lease was reclaimed.
    public var outcome: String?

    static let columns = [
        "token", "job_id", "attempt", "owner", "claimed_at", "finished_at", "outcome",
    ]

    init(row: [String?]) throws(QueueError) {
        guard row.count == Self.columns.count, let token = row[0].flatMap({ Int64($0) }),
            let jobID = row[1].flatMap({ Int64($0) }), let attempt = row[2].flatMap({ Int($0) }),
            let owner = row[3], let claimed = row[4].flatMap({ Int64($0) })
        else { throw QueueError("an attempt row is malformed: \(row)") }
        self.token = token
        self.jobID = jobID
        self.attempt = attempt
        self.owner = owner
        claimedAt = Timestamp(milliseconds: claimed)
        finishedAt = row[5].flatMap { Int64($0) }.map { Timestamp(milliseconds: $0) }
        outcome = row[6]
    }
}
