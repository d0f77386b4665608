import Foundation
import Synchronization
import Testing
import Variants

@testable import VariantdCore

/// What only the PostgreSQL queue does, on a real server the suite starts itself (see `PostgresServer`), one
/// fresh database per test: NOTIFY and plain-SQL enqueues (the shared contract is `QueueContract`).
@Suite(
    .postgresServer,
    .enabled(
        if: PostgresServer.isAvailable,
        "PostgreSQL binaries are absent (/usr/lib/postgresql/*/bin); run scripts/setup.sh")
)
struct PostgresQueueTests {
    @Test func notifiesTheResultWhenAJobBecomesFinal() async throws {
        let server = try #require(PostgresServer.current)
        let url = try server.freshDatabase()
        let queue = try await PostgresQueue(url: url)
        let listener = try PostgresConnection(url: url)
        try listener.query("LISTEN \(PostgresSchema.finishedChannel)")
        let id = try await queue.enqueue(try QueueContract.job("notified.jpg", version: "7")).id
        let claimed = try await QueueContract.claimOne(queue)
        _ = try await queue.finish(claimed.lease, with: .success(QueueContract.metadata))
        var received: [PostgresConnection.Notification] = []
        for _ in 0..<20 where received.isEmpty {
            received = try listener.notifications(waiting: .milliseconds(250))
        }
        let notice = try #require(received.first)
        #expect(notice.channel == PostgresSchema.finishedChannel)
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Data(notice.payload.utf8)) as? [String: Any])
        #expect(payload["id"] as? Int == Int(id))
        #expect(payload["state"] as? String == "completed")
        #expect(payload["version"] as? String == "7")
        #expect((payload["job"] as? [String: Any])?["metadata"] != nil)
    }

    /// A job's key is not bounded in length (a version, or any column a plain-SQL enqueue writes), but a
    /// NOTIFY payload is, to 8000 bytes: the notice of a job whose key alone passes that must still fit, or
    /// every rescue batch holding the job rolls back (its leases stay expired, `running` for ever) and a
    /// finish fails after its commit.
    @Test func aJobWhoseKeyPassesTheNoticeLimitIsStillRescuedAndFinished() async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let queue = try await PostgresQueue(url: url, policy: JobAttemptPolicy(maxAttempts: 1))
        let listener = try PostgresConnection(url: url)
        try listener.query("LISTEN \(PostgresSchema.finishedChannel)")
        let long = String(repeating: "v", count: 9000)
        let abandoned = try await queue.enqueue(try QueueContract.job("abandoned.jpg", version: long)).id
        let beside = try await queue.enqueue(try QueueContract.job("beside.jpg")).id
        _ = try await queue.claim(owner: "gone", limit: 2, lease: .milliseconds(100))
        try await Task.sleep(for: .milliseconds(400))
        // Both leases expired on their last attempt: the next claim's rescue discards them.
        #expect(try await queue.claim(owner: "w", limit: 1, lease: .seconds(30)).isEmpty)
        #expect(try await queue.job(id: abandoned)?.state == .discarded)
        #expect(try await queue.job(id: beside)?.state == .discarded)
        let finished = try await queue.enqueue(try QueueContract.job("finished.jpg", version: long)).id
        let claimed = try await QueueContract.claimOne(queue)
        let job = try await queue.finish(claimed.lease, with: .success(QueueContract.metadata))
        #expect(job?.id == finished && job?.state == .completed)
        var ids: [Int] = []
        for _ in 0..<20 where ids.count < 3 {
            ids += try listener.notifications(waiting: .milliseconds(250)).compactMap { notice in
                (try? JSONSerialization.jsonObject(with: Data(notice.payload.utf8)) as? [String: Any])?[
                    "id"] as? Int
            }
        }
        #expect(Set(ids) == [Int(abandoned), Int(beside), Int(finished)])
    }

    @Test func aPoolOpensNoMoreConnectionsThanItsSize() async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let pool = PostgresPool(url: url, size: 2)
        // Six calls at once, each holding its connection a moment and counting the database's sessions.
        let counts = try await (0..<6).asyncMapConcurrently { _ in
            try await pool.run(rerunnable: false) { connection throws(QueueError) -> Int in
                try connection.query("SELECT pg_sleep(0.1)")
                let sessions = try connection.query(
                    """
                    SELECT count(*) FROM pg_stat_activity
                    WHERE datname = current_database() AND backend_type = 'client backend'
                    """)
                return sessions.first?[0].flatMap { Int($0) } ?? -1
            }
        }
        #expect(counts.count == 6 && counts.allSatisfy { (1...2).contains($0) })
        #expect(counts.contains(2))
    }

    /// A session the server ended while the pool held it idle (a failover, a restart, an idle-session
    /// timeout, `pg_terminate_backend`) is found dead before the next statement is sent and opened again,
    /// so that operation succeeds rather than failing with "server closed the connection unexpectedly".
    @Test func anOperationAfterTheServerEndedThePooledSessionSucceeds() async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let queue = try await PostgresQueue(url: url)
        _ = try await queue.enqueue(try QueueContract.job("before.jpg"))
        try Self.endOtherSessions(of: url)
        #expect(try await queue.stateCounts() == [.available: 1])
        try Self.endOtherSessions(of: url)
        #expect(try await queue.enqueue(try QueueContract.job("after.jpg")).created)
        #expect(try await queue.stateCounts() == [.available: 2])
        // A finish, which is never run twice, too: nothing was sent on the dead connection.
        let claimed = try await QueueContract.claimOne(queue)
        try Self.endOtherSessions(of: url)
        #expect(
            try await queue.finish(claimed.lease, with: .success(QueueContract.metadata))?.state == .completed
        )
    }

    /// A connection that breaks while a call runs leaves the call's outcome unknown: the call is run again,
    /// once, on the connection re-established only when it says that is harmless, and fails otherwise.
    @Test(arguments: [true, false])
    func aCallWhoseConnectionBrokeUnderItRunsAgainOnlyWhenRerunnable(rerunnable: Bool) async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let pool = PostgresPool(url: url, size: 1)
        let runs = Runs()
        let call = Task {
            try await pool.run(rerunnable: rerunnable) { connection throws(QueueError) -> Int in
                let run = runs.next()
                if run == 1 { try connection.query("SELECT pg_sleep(600)") }
                return run
            }
        }
        let watcher = try PostgresConnection(url: url)
        // Generous: a loaded machine may take long to start the call, and nothing here waits longer than it must.
        let deadline = ContinuousClock.now + .seconds(300)
        while try watcher.query(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'"
        ).first?[0] != "1" {
            try #require(ContinuousClock.now < deadline, "the call's statement never ran")
            try await Task.sleep(for: .milliseconds(20))
        }
        try Self.endOtherSessions(of: url)
        let result = await call.result
        if rerunnable {
            #expect(try result.get() == 2)
        } else {
            #expect(throws: QueueError.self) { try result.get() }
            #expect(runs.next() == 2)
        }
    }

    /// A session whose server refuses writes (SQLSTATE 25006, as a standby not yet promoted behind the
    /// address of a fail-over does; here a session made read-only) is given up: the call runs again on a
    /// new session when rerunnable, and fails otherwise, leaving the next call a new session.
    @Test(arguments: [true, false])
    func aSessionRefusingWritesIsReplaced(rerunnable: Bool) async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let pool = PostgresPool(url: url, size: 1)
        try await pool.run(rerunnable: false) { connection throws(QueueError) in
            try connection.query("CREATE TABLE written (run integer)")
            try connection.query("SET default_transaction_read_only = on")
        }
        let runs = Runs()
        let result: Result<Int, QueueError>
        do throws(QueueError) {
            result = .success(
                try await pool.run(rerunnable: rerunnable) { connection throws(QueueError) -> Int in
                    let run = runs.next()
                    try connection.query("INSERT INTO written VALUES ($1)", [String(run)])
                    return run
                })
        } catch {
            result = .failure(error)
        }
        if rerunnable {
            #expect(try result.get() == 2)
        } else {
            #expect(throws: QueueError.self) { try result.get() }
            _ = try await pool.run(rerunnable: false) { connection throws(QueueError) in
                try connection.query("INSERT INTO written VALUES (3)")
            }
        }
        let written = try await pool.run(rerunnable: false) { connection throws(QueueError) in
            try connection.query("SELECT run FROM written ORDER BY run").compactMap { $0[0] }
        }
        #expect(written == (rerunnable ? ["2"] : ["3"]))
    }

    private final class Runs: Sendable {
        private let count = Mutex(0)

        func next() -> Int {
            count.withLock { count in
                count += 1
                return count
            }
        }
    }

    @Test func afterABackfillTheClaimTakesTheDueIndexFirstRows() async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let queue = try await PostgresQueue(url: url)
        let planner = try PostgresConnection(url: url)
        // Statistics taken while nothing waited, as on a queue between backfills, and kept so: autovacuum would
        // analyze the table after the backfill by itself when the test runs slowly enough to give it time.
        try planner.query("ANALYZE variantd_jobs")
        try planner.query("ALTER TABLE variantd_jobs SET (autovacuum_enabled = false)")
        _ = try await queue.enqueue(batch: try (0..<5000).map { try QueueContract.job("backfill-\($0).jpg") })
        let claimPlan = """
            EXPLAIN SELECT id FROM variantd_jobs WHERE state = 'available' AND scheduled_at <= now()
            ORDER BY scheduled_at, id LIMIT 32 FOR UPDATE SKIP LOCKED
            """
        func plan() throws -> String {
            try planner.query(claimPlan).compactMap { $0.first ?? nil }.joined(separator: "\n")
        }
        let stale = try plan()
        try await queue.refreshStatistics()
        let fresh = try plan()
        // Told few jobs wait, the planner sorts every waiting job; with fresh statistics it reads the
        // index's first rows.
        #expect(stale.contains("Sort"))
        #expect(fresh.contains("Index Scan using variantd_jobs_due") && !fresh.contains("Sort"))
    }

    /// finished_at keeps microseconds and a job's time their rounded milliseconds: a cursor taken from a job
    /// must neither hand the same job back (a time rounded down) nor skip its neighbours (rounded up).
    @Test func theUnreportedWalkGoesOnWithinOneMillisecond() async throws {
        let url = try #require(PostgresServer.current).freshDatabase()
        let queue = try await PostgresQueue(url: url)
        _ = try await queue.enqueue(batch: try (0..<4).map { try QueueContract.job("tie-\($0).jpg") })
        let claimed = try await queue.claim(owner: "w", limit: 4, lease: .seconds(30))
        _ = try await queue.finish(
            claimed.map { FinishedAttempt(lease: $0.lease, outcome: .success(QueueContract.metadata)) })
        let ids = claimed.map(\.job.id).sorted()
        try PostgresConnection(url: url).query(
            """
            UPDATE variantd_jobs SET finished_at = timestamptz '2026-01-01 00:00:00.123456+00'
                + CASE WHEN id > $1::bigint THEN interval '144 microseconds' ELSE interval '0' END
            """, [String(ids[1])])
        var walked: [Int64] = []
        var cursor = UnreportedCursor.oldest
        for _ in 0..<8 {
            guard let job = try await queue.unreported(after: cursor, limit: 1).first else { break }
            walked.append(job.id)
            cursor = try #require(UnreportedCursor(after: job))
        }
        #expect(walked == ids)
    }

    @Test func plainSQLEnqueueIsClaimedAndDeduped() async throws {
        let server = try #require(PostgresServer.current)
        let url = try server.freshDatabase()
        let queue = try await PostgresQueue(url: url)
        let storage = try PostgresConnection(url: url)
        let insert = """
            INSERT INTO variantd_jobs (bucket, path, version, source, content_type)
            VALUES ('b', 'plain.jpg', 'v1', 'pictures/gradient.jpg', 'image/jpeg') ON CONFLICT DO NOTHING
            """
        try storage.query("BEGIN; \(insert); \(insert); COMMIT;")
        let claimed = try await QueueContract.claimOne(queue)
        #expect(claimed.job.path == "plain.jpg" && claimed.job.declaredContentType == "image/jpeg")
        #expect(try await queue.jobs(in: nil, limit: 10).count == 1)
    }

    /// Ends every other session of the database, waiting until each is gone.
    private static func endOtherSessions(of url: String) throws {
        try PostgresConnection(url: url).query(
            """
            SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()
            """)
    }
}
