import Foundation
public import Variants

/// The shared queue: one PostgreSQL table that workers on many machines claim from.
///
/// A claim is one statement: a `MATERIALIZED` CTE picks due jobs `FOR UPDATE SKIP LOCKED` (claimers never
/// wait on each other's rows), the update hands out leases with fencing tokens from a sequence, and the
/// attempt log is written in the same statement. Idle workers are woken by `LISTEN variantd_jobs` (a
/// trigger notifies on every insert, plain-SQL ones included), with polling as the backstop. A job
/// becoming final is announced with `NOTIFY variantd_job_finished`.
public final class PostgresQueue: JobQueue {
    private let policy: RetryPolicy
    private let database: SerializedConnection<PostgresConnection>
    private let wake = WakeSignal()
    private let listener: PostgresListener

    /// Connects (`postgres://…` or a libpq connection string), applies pending migrations and starts
    /// listening for new jobs.
    public init(url: String, policy: RetryPolicy = RetryPolicy()) async throws(QueueError) {
        self.policy = policy
        database = SerializedConnection(
            try PostgresConnection(url: url), label: "variantd.postgres-queue")
        listener = try PostgresListener(url: url, channel: PostgresSchema.insertChannel, wake: wake)
        try await run { connection throws(QueueError) in try Self.migrate(connection) }
    }

    deinit {
        listener.stop()
    }

    /// The schema versions applied, in order.
    public func schemaVersions() async throws(QueueError) -> [Int] {
        try await run { connection throws(QueueError) in
            try connection.query("SELECT version FROM variantd_schema_migrations ORDER BY version")
                .compactMap { $0[0].flatMap { Int($0) } }
        }
    }

    public func enqueue(_ job: NewJob) async throws(QueueError) -> Enqueued {
        let maxAttempts = String(policy.maxAttempts)
        let key = [job.request.bucket, job.request.path, job.version]
        return try await run { connection throws(QueueError) in
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

    public func claim(owner: String, limit: Int, lease: Duration) async throws(QueueError)
        -> [ClaimedJob]
    {
        let policy = policy
        let milliseconds = String(Self.milliseconds(lease))
        return try await run { connection throws(QueueError) in
            let work = try connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM variantd_jobs WHERE state = 'available' AND scheduled_at <= now()),
                EXISTS (SELECT 1 FROM variantd_jobs WHERE state = 'running' AND lease_expires_at < now())
                """)
            if work.first?[1] == "t" {
                try Self.transaction(connection) { () throws(QueueError) in
                    try Self.rescue(connection, policy: policy)
                }
            }
            guard work.first?[0] == "t" || work.first?[1] == "t" else { return [] }
            let rows = try connection.query(
                """
                WITH next AS MATERIALIZED (
                    SELECT id FROM variantd_jobs WHERE state = 'available' AND scheduled_at <= now()
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
                let job = try Job(row: row)
                guard let token = job.leaseToken, let expires = job.leaseExpiresAt else {
                    throw QueueError("job \(job.id) was claimed without a lease")
                }
                return ClaimedJob(
                    job: job,
                    lease: Lease(
                        jobID: job.id, token: token, owner: owner, attempt: job.attempts, expiresAt: expires))
            }
        }
    }

    public func extend(_ lease: Lease, by duration: Duration) async throws(QueueError) -> Lease? {
        let parameters = [
            String(lease.jobID), String(lease.token), String(Self.milliseconds(duration)),
        ]
        return try await run { connection throws(QueueError) -> Lease? in
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

    public func finish(_ lease: Lease, with outcome: Result<CompletionMetadata, VariantsError>)
        async throws(QueueError)
        -> Job?
    {
        let policy = policy
        let result = try QueueSQL.resultJSON(outcome)
        let ids = [String(lease.jobID), String(lease.token)]
        let job = try await run { connection throws(QueueError) -> Job? in
            try Self.transaction(connection) { () throws(QueueError) -> Job? in
                let held = try connection.query(
                    """
                    SELECT attempts, max_attempts, crashes FROM variantd_jobs
                    WHERE id = $1 AND lease_token = $2 AND state = 'running' FOR UPDATE
                    """, ids)
                guard let row = held.first, let attempts = row[0].flatMap({ Int($0) }),
                    let maxAttempts = row[1].flatMap({ Int($0) }), var crashes = row[2].flatMap({ Int($0) })
                else { return nil }
                if case .failure(let error) = outcome, error.isDecoderFailure { crashes += 1 }
                let disposition = policy.disposition(
                    of: outcome, attempt: attempts, maxAttempts: maxAttempts, crashes: crashes)
                let job = try Self.move(
                    connection, lease.jobID, token: lease.token, to: disposition, result: result,
                    crashes: crashes)
                try connection.query(
                    "UPDATE variantd_job_attempts SET outcome = $2, finished_at = now() WHERE token = $1",
                    [String(lease.token), job.state.rawValue])
                return job
            }
        }
        if job?.state == .available { wake.signal() }
        return job
    }

    public func job(id: Int64) async throws(QueueError) -> Job? {
        try await select("WHERE id = $1", [String(id)]).first
    }

    public func jobs(in state: JobState?, limit: Int) async throws(QueueError) -> [Job] {
        if let state {
            return try await select(
                "WHERE state = $1 ORDER BY id LIMIT $2", [state.rawValue, String(limit)])
        }
        return try await select("ORDER BY id LIMIT $1", [String(limit)])
    }

    public func unreported(limit: Int) async throws(QueueError) -> [Job] {
        try await select(
            "WHERE reported_at IS NULL AND finished_at IS NOT NULL ORDER BY finished_at, id LIMIT $1",
            [String(limit)])
    }

    public func markReported(id: Int64) async throws(QueueError) {
        try await run { connection throws(QueueError) in
            try connection.query(
                "UPDATE variantd_jobs SET reported_at = now() WHERE id = $1 AND reported_at IS NULL",
                [String(id)])
        }
    }

    public func attempts(of id: Int64) async throws(QueueError) -> [JobAttempt] {
        try await run { connection throws(QueueError) in
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
        return try await run { connection throws(QueueError) in
            try connection.query(sql, parameters).map { row throws(QueueError) in try Job(row: row) }
        }
    }

    /// Runs on the connection, re-establishing it first if it dropped.
    private func run<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) throws(QueueError) -> T
    )
        async throws(QueueError) -> T
    {
        try await database.run { connection throws(QueueError) in
            if !connection.isConnected { connection.reset() }
            return try body(connection)
        }
    }

    // MARK: - Statements run inside the serial queue

    /// Returns jobs whose lease expired to `available` after a backoff, or makes them final when out of
    /// attempts; the attempt is logged as `lease_expired`. Rows another rescuer holds are skipped.
    private static func rescue(_ connection: PostgresConnection, policy: RetryPolicy)
        throws(QueueError)
    {
        let expired = try connection.query(
            """
            SELECT id, attempts, max_attempts, lease_token FROM variantd_jobs
            WHERE state = 'running' AND lease_expires_at < now()
            ORDER BY lease_expires_at LIMIT 100 FOR UPDATE SKIP LOCKED
            """)
        let error = try QueueSQL.resultJSON(.failure(RetryPolicy.leaseExpired))
        for row in expired {
            guard let id = row[0].flatMap({ Int64($0) }), let attempts = row[1].flatMap({ Int($0) }),
                let maxAttempts = row[2].flatMap({ Int($0) }), let token = row[3].flatMap({ Int64($0) })
            else { continue }
            let disposition = policy.dispositionOfExpiredLease(
                attempt: attempts, maxAttempts: maxAttempts)
            _ = try move(connection, id, token: token, to: disposition, result: error, crashes: nil)
            try connection.query(
                "UPDATE variantd_job_attempts SET outcome = 'lease_expired', finished_at = now() WHERE token = $1",
                [String(token)])
        }
    }

    /// Applies a disposition to a job still held under `token`, and announces it when final.
    private static func move(
        _ connection: PostgresConnection, _ id: Int64, token: Int64,
        to disposition: RetryPolicy.Disposition,
        result: String, crashes: Int?
    ) throws(QueueError) -> Job {
        let (state, delay): (JobState, Duration) =
            switch disposition {
            case .final(let state): (state, .zero)
            case .retry(let after): (.available, after)
            }
        let rows = try connection.query(
            """
            UPDATE variantd_jobs SET state = $3, result = $4::jsonb, crashes = COALESCE($5::integer, crashes),
                scheduled_at = now() + $6::bigint * interval '1 millisecond',
                finished_at = CASE WHEN $7::boolean THEN now() END,
                lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
            WHERE id = $1 AND lease_token = $2 RETURNING \(PostgresSchema.select(Job.columns))
            """,
            [
                String(id), String(token), state.rawValue, result, crashes.map(String.init),
                String(milliseconds(delay)), state.isFinal ? "true" : "false",
            ])
        guard let row = rows.first else {
            throw QueueError("job \(id) lost its lease inside a transaction")
        }
        let job = try Job(row: row)
        if state.isFinal {
            try connection.query(
                "SELECT pg_notify($1, $2)",
                [PostgresSchema.finishedChannel, try FinishedNotice(job).payload()])
        }
        return job
    }

    /// Runs `body` between BEGIN and COMMIT, rolling back when it throws.
    private static func transaction<T>(
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
