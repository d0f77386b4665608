import Foundation
import Synchronization
internal import Variants

/// The shared queue: one PostgreSQL table that workers on many machines claim from.
///
/// A claim is one statement: a `MATERIALIZED` CTE picks due jobs `FOR UPDATE SKIP LOCKED` (claimers never
/// wait on each other's rows), the update hands out leases with fencing tokens from a sequence, and the
/// attempt log is written in the same statement; a finish is one statement too. The process's calls share
/// one pool of connections (`PostgresPool`), and every statement is prepared once per connection. Idle
/// workers are woken by `LISTEN variantd_jobs` (a trigger notifies on every insert, plain-SQL ones
/// included), with polling as the backstop. A job becoming final is announced with
/// `NOTIFY variantd_job_finished` once committed.
public final class PostgresQueue: JobQueue {
    private let policy: JobAttemptPolicy
    private let pool: PostgresPool
    private let wake = WakeSignal()
    private let listener: PostgresListener
    /// When this process last looked for expired leases (epoch milliseconds); looked for at most every
    /// `rescueInterval`, not on every claim.
    private let lastRescue = Atomic<Int64>(0)
    static let rescueInterval: Duration = .milliseconds(250)

    /// Connects (`postgres://…` or a libpq connection string) with a pool of up to `connections`,
    /// applies pending migrations and starts listening for new jobs.
    public init(url: String, policy: JobAttemptPolicy = JobAttemptPolicy(), connections: Int = 4)
        async throws(QueueError)
    {
        self.policy = policy
        pool = PostgresPool(url: url, size: connections)
        listener = try PostgresListener(url: url, channel: PostgresSchema.insertChannel, wake: wake)
        try await run(rerunnable: true) { connection throws(QueueError) in try Self.migrate(connection) }
    }

    deinit {
        listener.stop()
    }

    /// The schema versions applied, in order.
    public func schemaVersions() async throws(QueueError) -> [Int] {
        try await run(rerunnable: true) { connection throws(QueueError) in
            try connection.query("SELECT version FROM variantd_schema_migrations ORDER BY version")
                .compactMap { $0[0].flatMap { Int($0) } }
        }
    }

    public func enqueue(_ job: NewJob) async throws(QueueError) -> Enqueued {
        let maxAttempts = String(policy.maxAttempts)
        let key = [job.request.bucket, job.request.path, job.version]
        return try await run(rerunnable: true) { connection throws(QueueError) in
            // The existing job may become final between the two statements; then the insert succeeds next time.
            for _ in 0..<3 {
                let inserted = try connection.query(
                    """
                    INSERT INTO variantd_jobs (bucket, path, version, source, content_type, max_attempts)
                    VALUES ($1, $2, $3, $4, $5, $6)
                    ON CONFLICT (bucket, path, version) WHERE state IN ('available', 'running') DO NOTHING
                    RETURNING id
                    """, key + [job.source, job.request.declaredContentType, maxAttempts])
                if let id = inserted.first?[0].flatMap({ Int64($0) }) {
                    return Enqueued(id: id, created: true)
                }
                let existing = try connection.query(
                    """
                    SELECT id FROM variantd_jobs WHERE bucket = $1 AND path = $2 AND version = $3
                    AND state IN ('available', 'running')
                    """, key)
                if let id = existing.first?[0].flatMap({ Int64($0) }) {
                    return Enqueued(id: id, created: false)
                }
            }
            throw QueueError("the job for \(job.request.path) was neither inserted nor found")
        }
    }

    public func enqueue(batch jobs: [NewJob]) async throws(QueueError) -> EnqueuedBatch {
        guard !jobs.isEmpty else { return EnqueuedBatch() }
        let columns = [
            Self.array(jobs.map(\.request.bucket)), Self.array(jobs.map(\.request.path)),
            Self.array(jobs.map(\.version)), Self.array(jobs.map(\.source)),
            Self.array(jobs.map(\.request.declaredContentType)), String(policy.maxAttempts),
        ]
        let added = try await run(rerunnable: true) { connection throws(QueueError) in
            // One statement for the whole batch; a key repeated inside it conflicts with its first row.
            try connection.query(
                """
                WITH inserted AS (
                    INSERT INTO variantd_jobs (bucket, path, version, source, content_type, max_attempts)
                    SELECT bucket, path, version, source, content_type, $6::integer
                    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
                        AS batch (bucket, path, version, source, content_type)
                    ON CONFLICT (bucket, path, version) WHERE state IN ('available', 'running') DO NOTHING
                    RETURNING 1)
                SELECT count(*) FROM inserted
                """, columns
            ).first?[0].flatMap { Int($0) } ?? 0
        }
        return EnqueuedBatch(added: added, alreadyQueued: jobs.count - added)
    }

    public func refreshStatistics() async throws(QueueError) {
        try await run(rerunnable: true) { connection throws(QueueError) in
            _ = try connection.query("ANALYZE variantd_jobs")
        }
    }

    public func claim(owner: String, limit: Int, lease: Duration) async throws(QueueError)
        -> [ClaimedJob]
    {
        let policy = policy
        let milliseconds = String(Self.milliseconds(lease))
        let now = Timestamp.now.milliseconds
        let rescueDue = lastRescue.load(ordering: .relaxed) <= now - Self.milliseconds(Self.rescueInterval)
        if rescueDue { lastRescue.store(now, ordering: .relaxed) }
        return try await run(rerunnable: true) { connection throws(QueueError) in
            if rescueDue {
                try Self.transaction(connection) { () throws(QueueError) in
                    try Self.rescue(connection, policy: policy)
                }
            }
            let rows = try connection.query(
                """
                WITH next AS MATERIALIZED (
                    SELECT id FROM variantd_jobs j WHERE state = 'available' AND scheduled_at <= now()
                        AND \(QueueSQL.oldestOfItsObject("j"))
                    ORDER BY scheduled_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
                ), claimed AS (
                    UPDATE variantd_jobs j SET state = 'running', attempts = j.attempts + 1, lease_owner = $2,
                        lease_token = nextval('variantd_lease_tokens'),
                        lease_expires_at = now() + $3::bigint * interval '1 millisecond', attempted_at = now()
                    FROM next WHERE j.id = next.id RETURNING j.*
                ), logged AS (
                    INSERT INTO variantd_job_attempts (token, job_id, attempt, owner, claimed_at)
                    SELECT lease_token, id, attempts, lease_owner, attempted_at FROM claimed
                )
                SELECT \(PostgresSchema.select(Job.columns)) FROM claimed ORDER BY scheduled_at, id
                """, [String(limit), owner, milliseconds])
            return try rows.map { row throws(QueueError) in
                try ClaimedJob(claimed: try Job(row: row), owner: owner)
            }
        }
    }

    public func extend(_ lease: Lease, by duration: Duration) async throws(QueueError) -> Lease? {
        let parameters = [
            String(lease.jobID), String(lease.token), String(Self.milliseconds(duration)),
        ]
        return try await run(rerunnable: true) { connection throws(QueueError) -> Lease? in
            let rows = try connection.query(
                """
                UPDATE variantd_jobs SET lease_expires_at = now() + $3::bigint * interval '1 millisecond'
                WHERE id = $1 AND lease_token = $2 AND state = 'running'
                RETURNING \(PostgresSchema.select(["lease_expires_at"]))
                """, parameters)
            guard let expires = rows.first?[0].flatMap({ Int64($0) }) else { return nil }
            var extended = lease
            extended.expiresAt = Timestamp(milliseconds: expires)
            return extended
        }
    }

    public func finish(_ attempts: [FinishedAttempt]) async throws(QueueError) -> [Job?] {
        let policy = policy
        let moves = try attempts.map { attempt throws(QueueError) in
            let lease = attempt.lease
            let disposition = policy.disposition(
                of: attempt.outcome, attempt: lease.attempt, maxAttempts: lease.maxAttempts,
                crashes: attempt.crashes)
            return Move(
                id: lease.jobID, token: lease.token, disposition: disposition,
                result: try QueueSQL.resultJSON(attempt.outcome),
                maxAttempts: disposition.maxAttempts(after: lease.maxAttempts), crashes: attempt.crashes,
                outcome: nil, attempt: lease.attempt)
        }
        // Not run again on a broken connection: a finish whose commit went unseen would find its leases
        // released and answer them lost, its finished notice never sent.
        let jobs = try await run(rerunnable: false) { connection throws(QueueError) -> [Job?] in
            try Self.move(connection, moves)
        }
        if jobs.contains(where: { $0?.state == .available }) { wake.signal() }
        return jobs
    }

    public func job(id: Int64) async throws(QueueError) -> Job? {
        try await select("WHERE id = $1", [String(id)]).first
    }

    public func jobs(_ filter: JobFilter, after cursor: Int64, limit: Int) async throws(QueueError) -> [Job] {
        var clause = "WHERE id > $1"
        var parameters = [String(cursor)]
        if let state = filter.state {
            parameters.append(state.rawValue)
            clause += " AND state = $\(parameters.count)"
        }
        if let bucket = filter.bucket {
            parameters.append(bucket)
            clause += " AND bucket = $\(parameters.count)"
        }
        parameters.append(String(limit))
        return try await select(clause + " ORDER BY id LIMIT $\(parameters.count)", parameters)
    }

    public func purge(finishedBefore cutoff: Timestamp, limit: Int) async throws(QueueError) -> Int {
        try await run(rerunnable: true) { connection throws(QueueError) in
            // The attempt log goes with its job (ON DELETE CASCADE); rows another purger holds are skipped.
            let rows = try connection.query(
                """
                WITH gone AS (
                    DELETE FROM variantd_jobs WHERE id IN (
                        SELECT id FROM variantd_jobs
                        WHERE finished_at IS NOT NULL AND finished_at < to_timestamp($1::bigint / 1000.0)
                        ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED)
                    RETURNING 1)
                SELECT count(*) FROM gone
                """, [String(cutoff.milliseconds), String(limit)])
            return rows.first?[0].flatMap { Int($0) } ?? 0
        }
    }

    public func stateCounts() async throws(QueueError) -> [JobState: Int] {
        let rows = try await run(rerunnable: true) { connection throws(QueueError) in
            try connection.query(QueueSQL.stateCounts)
        }
        return QueueSQL.stateCounts(rows)
    }

    public func unreported(after cursor: UnreportedCursor, limit: Int) async throws(QueueError) -> [Job] {
        // finished_at holds microseconds and a job's Timestamp their rounded milliseconds, so the cursor is
        // compared with the time as read: the jobs of one finish transaction (one now()) are walked by id
        // and none comes back. Two transactions finishing within one millisecond may be walked out of id
        // order (a job tried twice in a pass, or left for the next). The first bound keeps it a range on the
        // unreported index (a time read as m was stored after m − 0.5 ms).
        try await select(
            """
            WHERE reported_at IS NULL AND finished_at IS NOT NULL
                AND finished_at > to_timestamp(($1::bigint - 1) / 1000.0)
                AND (\(PostgresSchema.milliseconds("finished_at")), id) > ($1::bigint, $2::bigint)
            ORDER BY finished_at, id LIMIT $3
            """, [String(cursor.finishedAt.milliseconds), String(cursor.id), String(limit)])
    }

    public func markReported(id: Int64) async throws(QueueError) {
        try await run(rerunnable: true) { connection throws(QueueError) in
            _ = try connection.query(
                "UPDATE variantd_jobs SET reported_at = now() WHERE id = $1 AND reported_at IS NULL",
                [String(id)])
        }
    }

    public func attempts(of id: Int64) async throws(QueueError) -> [JobAttempt] {
        try await run(rerunnable: true) { connection throws(QueueError) in
            try connection.query(
                "SELECT \(PostgresSchema.select(JobAttempt.columns)) FROM variantd_job_attempts "
                    + "WHERE job_id = $1 ORDER BY token", [String(id)]
            ).map { row throws(QueueError) in try JobAttempt(row: row) }
        }
    }

    public func waitForWork(upTo timeout: Duration) async {
        await wake.wait(upTo: timeout)
    }

    private func select(_ clause: String, _ parameters: [String?]) async throws(QueueError) -> [Job] {
        let sql = "SELECT \(PostgresSchema.select(Job.columns)) FROM variantd_jobs \(clause)"
        return try await run(rerunnable: true) { connection throws(QueueError) in
            try connection.query(sql, parameters).map { row throws(QueueError) in try Job(row: row) }
        }
    }

    /// Runs on a connection of the pool, re-established first if it dropped. `rerunnable`: `body` may run
    /// again once when its connection broke under it, its outcome unknown (see `PostgresPool.run`). Every
    /// call is but a finish: reads; enqueues, deduplicated by the key's unique index (a job whose insert
    /// committed unseen is then found, answered as already queued); a migration, which looks at what is
    /// applied under its lock; a claim, whose unseen jobs wait for their leases to expire whether it runs
    /// again or not; and writes that a second run leaves as the first did (an extension under its lease
    /// token, a mark of what is unmarked, a purge of what is finished).
    func run<T: Sendable>(
        rerunnable: Bool, _ body: @escaping @Sendable (PostgresConnection) throws(QueueError) -> T
    )
        async throws(QueueError) -> T
    {
        try await pool.run(rerunnable: rerunnable, body)
    }

    /// A PostgreSQL array literal of texts (NULL for nil), for `unnest($n::text[])`. Written as bytes: the
    /// two escaped characters are ASCII, never part of a longer UTF-8 sequence, and a finish or an enqueue
    /// writes thousands of values.
    static func array(_ values: [String?]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(values.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let value else {
                bytes += "NULL".utf8
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") {
                    bytes.append(UInt8(ascii: "\\"))
                }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Statements run inside the serial queue

    /// Returns jobs whose lease expired to `available` after a backoff, or makes them final when out of
    /// attempts; the attempt is logged as `lease_expired`. Rows another rescuer holds are skipped.
    private static func rescue(_ connection: PostgresConnection, policy: JobAttemptPolicy)
        throws(QueueError)
    {
        let expired = try connection.query(
            """
            SELECT id, attempts, max_attempts, lease_token FROM variantd_jobs
            WHERE state = 'running' AND lease_expires_at < now()
            ORDER BY lease_expires_at LIMIT 100 FOR UPDATE SKIP LOCKED
            """)
        let error = try QueueSQL.resultJSON(.failure(JobAttemptPolicy.leaseExpired))
        let moves = expired.compactMap { row -> Move? in
            guard let id = row[0].flatMap({ Int64($0) }), let attempts = row[1].flatMap({ Int($0) }),
                let maxAttempts = row[2].flatMap({ Int($0) }), let token = row[3].flatMap({ Int64($0) })
            else { return nil }
            return Move(
                id: id, token: token,
                disposition: policy.dispositionOfExpiredLease(attempt: attempts, maxAttempts: maxAttempts),
                result: error, maxAttempts: nil, crashes: nil, outcome: "lease_expired", attempt: nil)
        }
        _ = try move(connection, moves)
    }

    /// Where one job still held under `token` goes: its disposition, its stored result, its attempt limit
    /// and crash count (nil: unchanged) and the outcome its attempt is logged with (nil: the state it goes
    /// to).
    struct Move: Sendable {
        var id: Int64
        var token: Int64
        var disposition: JobAttemptPolicy.Disposition
        var result: String
        var maxAttempts: Int?
        var crashes: Int?
        var outcome: String?
        /// A finish's attempt number, which lets it take a job rescued since that nobody claimed
        /// (`QueueSQL.rescuedUnclaimed`); nil for a rescue, which moves only running jobs.
        var attempt: Int?
    }

    /// Applies the moves and logs their attempts' outcomes in one statement (one commit outside a
    /// transaction); returns the updated jobs in order, nil where the lease was lost (nothing changed).
    /// Jobs made final are announced on `variantd_job_finished` once committed.
    private static func move(_ connection: PostgresConnection, _ moves: [Move]) throws(QueueError) -> [Job?] {
        guard !moves.isEmpty else { return [] }
        let rows = try connection.query(
            """
            WITH batch AS (
                SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::integer[],
                    $6::bigint[], $7::text[], $8::integer[], $9::integer[])
                    AS b (id, token, state, result, crashes, delay, outcome, max_attempts, attempt)
            ), moved AS (
                UPDATE variantd_jobs j SET state = b.state, result = b.result::jsonb,
                    max_attempts = COALESCE(b.max_attempts, j.max_attempts),
                    crashes = COALESCE(b.crashes, j.crashes),
                    scheduled_at = now() + b.delay * interval '1 millisecond',
                    finished_at = CASE WHEN b.state IN \(QueueSQL.finalStates) THEN now() END,
                    lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
                FROM batch b WHERE j.id = b.id AND (j.lease_token = b.token AND j.state = 'running'
                    OR \(QueueSQL.rescuedUnclaimed(job: "j", attempt: "b.attempt", token: "b.token")))
                RETURNING j.*, b.token AS held_token, b.outcome AS logged_outcome
            ), logged AS (
                UPDATE variantd_job_attempts a SET outcome = m.logged_outcome, finished_at = now()
                FROM moved m WHERE a.token = m.held_token
            )
            SELECT \(PostgresSchema.select(Job.columns)), held_token FROM moved
            """,
            [
                "{" + moves.map { String($0.id) }.joined(separator: ",") + "}",
                "{" + moves.map { String($0.token) }.joined(separator: ",") + "}",
                array(moves.map { $0.state.rawValue }), array(moves.map(\.result)),
                array(moves.map { $0.crashes.map(String.init) }),
                "{" + moves.map { String(milliseconds($0.delay)) }.joined(separator: ",") + "}",
                array(moves.map { $0.outcome ?? $0.state.rawValue }),
                array(moves.map { $0.maxAttempts.map(String.init) }),
                array(moves.map { $0.attempt.map(String.init) }),
            ])
        var moved: [Int64: Job] = [:]
        for row in rows {
            guard let held = row.last, let token = held.flatMap({ Int64($0) }) else { continue }
            moved[token] = try Job(row: Array(row.dropLast()))
        }
        let finals = moved.values.filter(\.state.isFinal)
        if !finals.isEmpty {
            let payloads = try finals.map { job throws(QueueError) in try FinishedNotice(job).payload() }
            try connection.query(
                "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS notices (payload)",
                [PostgresSchema.finishedChannel, array(payloads)])
        }
        return moves.map { moved[$0.token] }
    }

    /// Runs `body` between BEGIN and COMMIT, rolling back when it throws.
    static func transaction<T>(
        _ connection: PostgresConnection, _ body: () throws(QueueError) -> T
    )
        throws(QueueError) -> T
    {
        try connection.query("BEGIN")
        do throws(QueueError) {
            let value = try body()
            try connection.query("COMMIT")
            return value
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
    }

    private static func migrate(_ connection: PostgresConnection) throws(QueueError) {
        try transaction(connection) { () throws(QueueError) in
            try connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.advisoryLock))")
            try connection.query(
                """
                CREATE TABLE IF NOT EXISTS variantd_schema_migrations (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let applied = Set(
                try connection.query("SELECT version FROM variantd_schema_migrations").compactMap {
                    $0[0].flatMap { Int($0) }
                })
            for migration in PostgresSchema.migrations where !applied.contains(migration.version) {
                try connection.query(migration.sql)
                try connection.query(
                    "INSERT INTO variantd_schema_migrations (version) VALUES ($1)",
                    [String(migration.version)])
            }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

extension PostgresQueue.Move {
    var state: JobState {
        switch disposition {
        case .final(let state): state
        case .retry, .release: .available
        }
    }

    var delay: Duration {
        switch disposition {
        case .final: .zero
        case .retry(let after), .release(let after): after
        }
    }
}
