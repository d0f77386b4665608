import Foundation
internal import Variants

/// The embedded queue: one SQLite file in WAL mode, shared by the worker processes of one machine (WAL needs
/// shared memory: local disk only, never a network file system).
///
/// Every write is a `BEGIN IMMEDIATE` transaction, so claimers are serialised by SQLite's write lock and no
/// row is claimed twice; enqueues commit with `synchronous=FULL`, so an acknowledged one survives a power loss
/// (claims and finishes need not: see `Commit`). Idle workers
/// notice other processes' commits through `PRAGMA data_version`.
public final class SQLiteQueue: JobQueue {
    public let path: String
    private let policy: JobAttemptPolicy
    let database: SerializedConnection<SQLiteConnection>
    private let wake = WakeSignal()

    /// Opens the queue file, creating it and its directory if needed, and applies pending migrations.
    public init(path: String, policy: JobAttemptPolicy = JobAttemptPolicy()) async throws(QueueError) {
        self.path = path
        self.policy = policy
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let connection = try SQLiteConnection(path: path)
        connection.writes = .queue
        WriteHealth.shared.watch(.queue, directory: directory.isEmpty ? "." : directory)
        try connection.execute(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
        database = SerializedConnection(connection, label: "variantd.sqlite-queue")
        try await database.run { connection throws(QueueError) in try Self.migrate(connection) }
    }

    /// The schema versions applied, in order.
    public func schemaVersions() async throws(QueueError) -> [Int] {
        try await database.run { connection throws(QueueError) in
            try connection.query("SELECT version FROM variantd_schema_migrations ORDER BY version")
                .compactMap { $0[0].flatMap { Int($0) } }
        }
    }

    public func enqueue(_ job: NewJob) async throws(QueueError) -> Enqueued {
        let maxAttempts = policy.maxAttempts
        let enqueued = try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) in
                let inserted = try connection.query(
                    """
                    INSERT INTO variantd_jobs (bucket, path, version, source, content_type, max_attempts)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (bucket, path, version) WHERE state IN ('available', 'running') DO NOTHING
                    RETURNING id
                    """,
                    [
                        .text(job.request.bucket), .text(job.request.path), .text(job.version),
                        .text(job.source),
                        job.request.declaredContentType.map { .text($0) } ?? .null,
                        .integer(Int64(maxAttempts)),
                    ])
                if let id = inserted.first?[0].flatMap({ Int64($0) }) {
                    return Enqueued(id: id, created: true)
                }
                let existing = try connection.query(
                    """
                    SELECT id FROM variantd_jobs WHERE bucket = ? AND path = ? AND version = ?
                    AND state IN ('available', 'running')
                    """,
                    [.text(job.request.bucket), .text(job.request.path), .text(job.version)])
                guard let id = existing.first?[0].flatMap({ Int64($0) }) else {
                    throw QueueError("the job for \(job.request.path) was neither inserted nor found")
                }
                return Enqueued(id: id, created: false)
            }
        }
        wake.signal()
        return enqueued
    }

    public func enqueue(batch jobs: [NewJob]) async throws(QueueError) -> EnqueuedBatch {
        let maxAttempts = Int64(policy.maxAttempts)
        let enqueued = try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) in
                var added = 0
                var rest = jobs[...]
                while !rest.isEmpty {
                    let rows = rest.count >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
                    var parameters: [SQLiteConnection.Parameter] = []
                    parameters.reserveCapacity(rows * 6)
                    for job in rest.prefix(rows) {
                        parameters += [
                            .text(job.request.bucket), .text(job.request.path), .text(job.version),
                            .text(job.source), job.request.declaredContentType.map { .text($0) } ?? .null,
                            .integer(maxAttempts),
                        ]
                    }
                    try connection.query(rows == 1 ? Self.insertOne : Self.insertMany, parameters)
                    added += connection.changes
                    rest = rest.dropFirst(rows)
                }
                return EnqueuedBatch(added: added, alreadyQueued: jobs.count - added)
            }
        }
        if enqueued.added > 0 { wake.signal() }
        return enqueued
    }

    /// Rows per insert statement of a batch: one statement executed for a hundred rows costs a fraction of a
    /// hundred executions; the batch's last rows beyond a multiple go one at a time. A key repeated within
    /// one statement conflicts with its first row, as across statements.
    static let rowsPerInsert = 100
    private static let insertMany = insert(rows: rowsPerInsert)
    private static let insertOne = insert(rows: 1)

    private static func insert(rows: Int) -> String {
        "INSERT INTO variantd_jobs (bucket, path, version, source, content_type, max_attempts) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
            + " ON CONFLICT (bucket, path, version) WHERE state IN ('available', 'running') DO NOTHING"
    }

    public func refreshStatistics() async throws(QueueError) {}

    public func claim(owner: String, limit: Int, lease: Duration) async throws(QueueError)
        -> [ClaimedJob]
    {
        let policy = policy
        return try await database.run { connection throws(QueueError) in
            let now = Timestamp.now
            guard try Self.hasWork(connection, now: now) else { return [] }
            return try Self.writing(connection, commit: .deferred) { () throws(QueueError) in
                try Self.rescue(connection, now: now, policy: policy)
                // INDEXED BY: with an equality on `state`, the planner prefers (state, id) and sorts every
                // waiting job to find the oldest, a cost that grows with the backlog.
                let due = try connection.query(
                    """
                    SELECT id FROM variantd_jobs AS j INDEXED BY variantd_jobs_due
                    WHERE state = 'available' AND scheduled_at <= ? AND \(QueueSQL.oldestOfItsObject("j"))
                    ORDER BY scheduled_at, id LIMIT ?
                    """, [.integer(now.milliseconds), .integer(Int64(limit))])
                let expires = now.adding(lease)
                return try due.compactMap { $0[0].flatMap { Int64($0) } }.map { id throws(QueueError) in
                    let token = try connection.query(
                        """
                        INSERT INTO variantd_job_attempts (job_id, attempt, owner, claimed_at)
                        SELECT id, attempts + 1, ?, ? FROM variantd_jobs WHERE id = ? RETURNING token
                        """, [.text(owner), .integer(now.milliseconds), .integer(id)])
                    guard let token = token.first?[0].flatMap({ Int64($0) }) else {
                        throw QueueError("job \(id) vanished while being claimed")
                    }
                    let rows = try connection.query(
                        """
                        UPDATE variantd_jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?,
                        lease_token = ?, lease_expires_at = ?, attempted_at = ? WHERE id = ?
                        RETURNING \(Job.columns.joined(separator: ", "))
                        """,
                        [
                            .text(owner), .integer(token), .integer(expires.milliseconds),
                            .integer(now.milliseconds),
                            .integer(id),
                        ])
                    guard let row = rows.first else {
                        throw QueueError("job \(id) vanished while being claimed")
                    }
                    return try ClaimedJob(claimed: try Job(row: row), owner: owner)
                }
            }
        }
    }

    public func extend(_ lease: Lease, by duration: Duration) async throws(QueueError) -> Lease? {
        try await database.run { connection throws(QueueError) in
            let expires = Timestamp.now.adding(duration)
            return try Self.writing(connection, commit: .deferred) { () throws(QueueError) -> Lease? in
                try connection.query(
                    """
                    UPDATE variantd_jobs SET lease_expires_at = ?
                    WHERE id = ? AND lease_token = ? AND state = 'running'
                    """, [.integer(expires.milliseconds), .integer(lease.jobID), .integer(lease.token)])
                guard connection.changes == 1 else { return nil }
                var extended = lease
                extended.expiresAt = expires
                return extended
            }
        }
    }

    public func finish(_ attempts: [FinishedAttempt]) async throws(QueueError) -> [Job?] {
        let policy = policy
        let results = try attempts.map { attempt throws(QueueError) in
            try QueueSQL.resultJSON(attempt.outcome)
        }
        let jobs = try await database.run { connection throws(QueueError) -> [Job?] in
            let now = Timestamp.now
            return try Self.writing(connection, commit: .deferred) { () throws(QueueError) -> [Job?] in
                try zip(attempts, results).map { attempt, result throws(QueueError) -> Job? in
                    let lease = attempt.lease
                    let disposition = policy.disposition(
                        of: attempt.outcome, attempt: lease.attempt, maxAttempts: lease.maxAttempts,
                        crashes: attempt.crashes)
                    let (state, scheduled, finished) = Self.columns(for: disposition, now: now)
                    let rows = try connection.query(
                        """
                        UPDATE variantd_jobs SET state = ?, result = ?, max_attempts = ?, crashes = ?,
                        scheduled_at = ?, finished_at = ?, lease_owner = NULL, lease_token = NULL,
                        lease_expires_at = NULL
                        WHERE id = ? AND (lease_token = ? AND state = 'running'
                            OR \(QueueSQL.rescuedUnclaimed(job: "variantd_jobs", attempt: "?", token: "?")))
                        RETURNING \(Job.columns.joined(separator: ", "))
                        """,
                        [
                            .text(state.rawValue), .text(result),
                            .integer(Int64(disposition.maxAttempts(after: lease.maxAttempts))),
                            .integer(Int64(attempt.crashes)), .integer(scheduled.milliseconds),
                            finished.map { .integer($0.milliseconds) } ?? .null, .integer(lease.jobID),
                            .integer(lease.token), .integer(Int64(lease.attempt)), .integer(lease.token),
                        ])
                    guard let row = rows.first else { return nil }
                    try connection.query(
                        "UPDATE variantd_job_attempts SET outcome = ?, finished_at = ? WHERE token = ?",
                        [.text(state.rawValue), .integer(now.milliseconds), .integer(lease.token)])
                    return try Job(row: row)
                }
            }
        }
        if jobs.contains(where: { $0?.state == .available }) { wake.signal() }
        return jobs
    }

    public func job(id: Int64) async throws(QueueError) -> Job? {
        try await select("WHERE id = ?", [.integer(id)]).first
    }

    public func jobs(_ filter: JobFilter, after cursor: Int64, limit: Int) async throws(QueueError) -> [Job] {
        var clause = "WHERE id > ?"
        var parameters: [SQLiteConnection.Parameter] = [.integer(cursor)]
        if let state = filter.state {
            clause += " AND state = ?"
            parameters.append(.text(state.rawValue))
        }
        if let bucket = filter.bucket {
            clause += " AND bucket = ?"
            parameters.append(.text(bucket))
        }
        return try await select(clause + " ORDER BY id LIMIT ?", parameters + [.integer(Int64(limit))])
    }

    public func purge(finishedBefore cutoff: Timestamp, limit: Int) async throws(QueueError) -> Int {
        try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) in
                // The attempt log goes with its job (ON DELETE CASCADE).
                try connection.query(
                    """
                    DELETE FROM variantd_jobs WHERE id IN (
                        SELECT id FROM variantd_jobs INDEXED BY variantd_jobs_finished
                        WHERE finished_at IS NOT NULL AND finished_at < ? ORDER BY finished_at LIMIT ?)
                    """, [.integer(cutoff.milliseconds), .integer(Int64(limit))])
                return connection.changes
            }
        }
    }

    public func stateCounts() async throws(QueueError) -> [JobState: Int] {
        let rows = try await database.run { connection throws(QueueError) in
            try connection.query(QueueSQL.stateCounts)
        }
        return QueueSQL.stateCounts(rows)
    }

    public func unreported(after cursor: UnreportedCursor, limit: Int) async throws(QueueError) -> [Job] {
        // The row value is a range on the unreported index, whose entries end with the rowid (the id).
        try await select(
            """
            WHERE reported_at IS NULL AND finished_at IS NOT NULL AND (finished_at, id) > (?, ?)
            ORDER BY finished_at, id LIMIT ?
            """, [.integer(cursor.finishedAt.milliseconds), .integer(cursor.id), .integer(Int64(limit))])
    }

    public func markReported(id: Int64) async throws(QueueError) {
        try await database.run { connection throws(QueueError) in
            try Self.writing(connection) { () throws(QueueError) in
                _ = try connection.query(
                    "UPDATE variantd_jobs SET reported_at = ? WHERE id = ? AND reported_at IS NULL",
                    [.integer(Timestamp.now.milliseconds), .integer(id)])
            }
        }
    }

    public func attempts(of id: Int64) async throws(QueueError) -> [JobAttempt] {
        try await database.run { connection throws(QueueError) in
            try connection.query(
                "SELECT \(JobAttempt.columns.joined(separator: ", ")) FROM variantd_job_attempts "
                    + "WHERE job_id = ? ORDER BY token", [.integer(id)]
            ).map { row throws(QueueError) in try JobAttempt(row: row) }
        }
    }

    public func waitForWork(upTo timeout: Duration) async {
        let seen = try? await dataVersion()
        await wake.wait(upTo: timeout, every: .milliseconds(100)) { [self] in
            (try? await dataVersion()) != seen
        }
    }

    /// Changes whenever another connection commits to the file.
    private func dataVersion() async throws(QueueError) -> String? {
        try await database.run { connection throws(QueueError) in
            try connection.query("PRAGMA data_version").first?[0] ?? nil
        }
    }

    private func select(_ clause: String, _ parameters: [SQLiteConnection.Parameter])
        async throws(QueueError) -> [Job]
    {
        let sql = "SELECT \(Job.columns.joined(separator: ", ")) FROM variantd_jobs \(clause)"
        return try await database.run { connection throws(QueueError) in
            try connection.query(sql, parameters).map { row throws(QueueError) in try Job(row: row) }
        }
    }

    // MARK: - Statements run inside the serial queue

    /// Whether a claim could find anything, read without taking the write lock.
    private static func hasWork(_ connection: SQLiteConnection, now: Timestamp) throws(QueueError)
        -> Bool
    {
        let rows = try connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM variantd_jobs INDEXED BY variantd_jobs_due
                WHERE state = 'available' AND scheduled_at <= ?)
            OR EXISTS (SELECT 1 FROM variantd_jobs INDEXED BY variantd_jobs_leases
                WHERE state = 'running' AND lease_expires_at < ?)
            """, [.integer(now.milliseconds), .integer(now.milliseconds)])
        return rows.first?[0] == "1"
    }

    /// Returns jobs whose lease expired to `available` after a backoff, or makes them final when out of
    /// attempts; the attempt is logged as `lease_expired`.
    private static func rescue(_ connection: SQLiteConnection, now: Timestamp, policy: JobAttemptPolicy)
        throws(QueueError)
    {
        let expired = try connection.query(
            """
            SELECT id, attempts, max_attempts, lease_token FROM variantd_jobs INDEXED BY variantd_jobs_leases
            WHERE state = 'running' AND lease_expires_at < ? LIMIT 100
            """, [.integer(now.milliseconds)])
        let error = try QueueSQL.resultJSON(.failure(JobAttemptPolicy.leaseExpired))
        for row in expired {
            guard let id = row[0].flatMap({ Int64($0) }), let attempts = row[1].flatMap({ Int($0) }),
                let maxAttempts = row[2].flatMap({ Int($0) }), let token = row[3].flatMap({ Int64($0) })
            else { continue }
            let disposition = policy.dispositionOfExpiredLease(
                attempt: attempts, maxAttempts: maxAttempts)
            let (state, scheduled, finished) = columns(for: disposition, now: now)
            try connection.query(
                """
                UPDATE variantd_jobs SET state = ?, result = ?, scheduled_at = ?, finished_at = ?,
                lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL WHERE id = ? AND lease_token = ?
                """,
                [
                    .text(state.rawValue), .text(error), .integer(scheduled.milliseconds),
                    finished.map { .integer($0.milliseconds) } ?? .null, .integer(id), .integer(token),
                ])
            try connection.query(
                "UPDATE variantd_job_attempts SET outcome = 'lease_expired', finished_at = ? WHERE token = ?",
                [.integer(now.milliseconds), .integer(token)])
        }
    }

    /// The state, next due time and finish time a disposition writes.
    private static func columns(for disposition: JobAttemptPolicy.Disposition, now: Timestamp)
        -> (JobState, Timestamp, Timestamp?)
    {
        switch disposition {
        case .final(let state): (state, now, now)
        case .retry(let delay), .release(let delay): (.available, now.adding(delay), nil)
        }
    }

    /// How a write transaction commits. `durable` (`synchronous=FULL`) returns once the write-ahead log is on
    /// the disk, so an acknowledged enqueue survives a power loss. `deferred` (`synchronous=NORMAL`) leaves
    /// the flush to the next durable commit or checkpoint: a power loss may undo the last claims, heartbeats
    /// and finishes — a job claimed again or run once more, which at-least-once delivery allows — but never
    /// an enqueue, since the log is replayed in order and a durable commit flushes everything before it. Both
    /// survive a crash of the process. A claim and a finish are two commits per batch of jobs: waiting for
    /// the disk twice bounded the claim rate on a busy disk.
    enum Commit {
        case durable
        case deferred
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction committed as `commit` says, trying again with jitter
    /// when another process held the write lock past the busy timeout.
    static func writing<T>(
        _ connection: SQLiteConnection, commit: Commit = .durable, _ body: () throws(QueueError) -> T
    )
        throws(QueueError) -> T
    {
        var tries = 0
        while true {
            tries += 1
            do throws(QueueError) {
                try connection.execute(
                    commit == .durable ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
                try connection.execute("BEGIN IMMEDIATE")
                do throws(QueueError) {
                    let value = try body()
                    try connection.execute("COMMIT")
                    return value
                } catch {
                    try? connection.execute("ROLLBACK")
                    throw error
                }
            } catch {
                guard error.busy && tries < 5 else { throw error }
                usleep(UInt32.random(in: 10_000...100_000))
            }
        }
    }

    private static func migrate(_ connection: SQLiteConnection) throws(QueueError) {
        try writing(connection) { () throws(QueueError) in
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS variantd_schema_migrations (
                    version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)
                """)
            let applied = Set(
                try connection.query("SELECT version FROM variantd_schema_migrations").compactMap {
                    $0[0].flatMap { Int($0) }
                })
            for migration in SQLiteSchema.migrations where !applied.contains(migration.version) {
                try connection.execute(migration.sql)
                try connection.query(
                    "INSERT INTO variantd_schema_migrations (version, applied_at) VALUES (?, ?)",
                    [.integer(Int64(migration.version)), .integer(Timestamp.now.milliseconds)])
            }
        }
    }
}
