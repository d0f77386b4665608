import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd work` as a process against each backend: an outcome kept until a database outage ends, a
/// stop during one, and a lease lost in the middle of a decode.
@Suite(.postgresServer) struct WorkerTests {
    /// One test's queue, with plain SQL on connections of the test's own: how the tests cut a worker off
    /// from the database and steal its lease.
    struct Database {
        var backend: QueueBackend
        var directory: URL
        /// PostgreSQL's URL; nil on SQLite.
        var url: String?

        init(_ backend: QueueBackend, directory: URL) throws {
            self.backend = backend
            self.directory = directory
            url = backend == .postgres ? try #require(PostgresServer.current).freshDatabase() : nil
        }

        var location: String { url ?? "sqlite:\(sqlitePath)" }
        private var sqlitePath: String { directory.appendingPathComponent("queue.sqlite3").path }

        func open() async throws -> any JobQueue {
            let policy = JobAttemptPolicy(backoffUnit: .milliseconds(20))
            if let url { return try await PostgresQueue(url: url, policy: policy) }
            return try await SQLiteQueue(path: sqlitePath, policy: policy)
        }

        func execute(_ sql: String) throws {
            if let url {
                _ = try PostgresConnection(url: url).query(sql)
            } else {
                try SQLiteConnection(path: sqlitePath).execute(sql)
            }
        }

        /// Readies the outage, the queue's tables made. PostgreSQL: the first finish is held in the database
        /// (a sequence counts it, whatever becomes of its transaction), so the outage begins while it is in
        /// flight. SQLite, which a process cannot lose: finishes are refused until `endOutage`.
        func prepareOutage() throws {
            if url != nil {
                try execute("CREATE SEQUENCE test_outage")
                try postgresTrigger(
                    "test_outage", "BEFORE UPDATE", returning: "NEW",
                    """
                    IF OLD.state = 'running' AND NEW.state <> 'running' AND nextval('test_outage') = 1 THEN
                        PERFORM pg_sleep(120);
                    END IF;
                    """)
            } else {
                try execute(
                    """
                    CREATE TABLE test_outage (down INTEGER);
                    INSERT INTO test_outage VALUES (1);
                    CREATE TRIGGER test_outage BEFORE UPDATE OF state ON variantd_jobs
                    WHEN OLD.state = 'running' AND NEW.state <> 'running' AND EXISTS (SELECT 1 FROM test_outage)
                    BEGIN SELECT RAISE(ABORT, 'the database is down'); END;
                    """)
            }
        }

        /// On PostgreSQL, once the first finish is held: every session of the database ended and new ones
        /// refused, as in a failover.
        func beginOutage() async throws {
            guard let url else { return }
            let watcher = try PostgresConnection(url: url)
            let deadline = ContinuousClock.now + .seconds(60)
            while try watcher.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'"
            ).first?[0] != "1" {
                guard ContinuousClock.now < deadline else { throw QueueError("no finish was held") }
                try await Task.sleep(for: .milliseconds(20))
            }
            let admin = try PostgresConnection(url: try adminURL())
            try admin.query("ALTER DATABASE \(name(url)) ALLOW_CONNECTIONS false")
            try admin.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name(url))'")
        }

        func endOutage() throws {
            if let url {
                try PostgresConnection(url: try adminURL()).query(
                    "ALTER DATABASE \(name(url)) ALLOW_CONNECTIONS true")
            } else {
                try execute("DELETE FROM test_outage")
            }
        }

        /// Readies a theft, the queue's tables made: the first job a worker claims has its lease handed to
        /// another owner for an hour by the claim itself, as a worker that claimed it after the lease ran out
        /// would hold it. The worker learns it at its first renewal, while it decodes, however late the test
        /// looks.
        func prepareTheft() throws {
            let unstolen =
                "NEW.lease_owner <> 'thief' AND NOT EXISTS (SELECT 1 FROM variantd_jobs WHERE lease_owner = 'thief')"
            if url != nil {
                try postgresTrigger(
                    "test_theft", "AFTER UPDATE", returning: "NULL",
                    """
                    IF NEW.state = 'running' AND OLD.state <> 'running' AND \(unstolen) THEN
                        UPDATE variantd_jobs SET lease_token = NEW.lease_token + 1000000, lease_owner = 'thief',
                            lease_expires_at = NEW.lease_expires_at + interval '1 hour' WHERE id = NEW.id;
                    END IF;
                    """)
            } else {
                try execute(
                    """
                    CREATE TRIGGER test_theft AFTER UPDATE OF state ON variantd_jobs
                    WHEN NEW.state = 'running' AND OLD.state <> 'running' AND \(unstolen)
                    BEGIN
                        UPDATE variantd_jobs SET lease_token = NEW.lease_token + 1000000, lease_owner = 'thief',
                            lease_expires_at = NEW.lease_expires_at + 3600000 WHERE id = NEW.id;
                    END;
                    """)
            }
        }

        /// A PostgreSQL trigger on every row the jobs table updates, `timing` it, running `body` (PL/pgSQL).
        private func postgresTrigger(
            _ name: String, _ timing: String, returning value: String, _ body: String
        )
            throws
        {
            try execute(
                "CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \(body) RETURN \(value); END $$"
            )
            try execute(
                "CREATE TRIGGER \(name) \(timing) ON variantd_jobs FOR EACH ROW EXECUTE FUNCTION \(name)()")
        }

        private func adminURL() throws -> String { try #require(PostgresServer.current).url("postgres") }
        private func name(_ url: String) -> String { String(url.split(separator: "/").last ?? "") }
    }

    /// The events a worker printed about one job, in order.
    static func events(_ printed: String, job id: Int64) -> [[String: Any]] {
        printed.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }.filter { ($0["job"] as? NSNumber)?.int64Value == id }
    }

    static func waitFor(_ what: String, within limit: Duration, _ done: () async throws -> Bool) async throws
    {
        let deadline = ContinuousClock.now + limit
        while try await !done() {
            guard ContinuousClock.now < deadline else {
                throw QueueError("\(what) did not happen within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func work(
        _ database: Database, root: String = TestPaths.samples.path, buckets: URL, _ extra: [String]
    )
        throws -> VariantdProcess
    {
        try VariantdProcess(
            [
                "work", "--queue", database.location, "--root", root, "--buckets", buckets.path, "--out",
                database.directory.appendingPathComponent("renditions").path, "--workers", "1", "--poll", "1",
                "--backoff-ms", "20",
            ] + extra)
    }

    /// A worker that has run one job and failed to write its outcome back: the database went down (sessions
    /// ended and new ones refused, or finishes refused on SQLite) before it could.
    private static func outageAtTheFinish(_ database: Database, lease: Int) async throws
        -> (worker: VariantdProcess, job: Int64)
    {
        let queue = try await database.open()
        try database.prepareOutage()
        let worker = try work(database, buckets: database.directory, ["--lease", String(lease)])
        let id = try await queue.enqueue(
            try NewJob(request: ObjectRequest(bucket: "b", path: "g.jpg"), source: "pictures/gradient.jpg")
        ).id
        try await database.beginOutage()
        try await waitFor("a queue error", within: .seconds(120)) {
            events(worker.printed, job: id).contains { $0["event"] as? String == "queue_error" }
        }
        return (worker, id)
    }

    /// A finished job's outcome outlives an outage longer than a minute (a failover, a restart): it is kept
    /// and written once the database answers, with one attempt spent, never thrown away as a lost lease.
    @Test(arguments: QueueBackend.available)
    func writesAnOutcomeBackOnceAnOutageLongerThanAMinuteEnds(backend: QueueBackend) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(backend, directory: directory)
        let (worker, id) = try await Self.outageAtTheFinish(database, lease: 10)
        try await Task.sleep(for: .seconds(70))
        try database.endOutage()
        // The test's own sessions were ended too.
        let reopened = try await database.open()
        try await Self.waitFor("the completion", within: .seconds(120)) {
            try await reopened.job(id: id)?.state == .completed
        }
        worker.signal(SIGTERM)
        let finished = try await worker.finish(within: .seconds(60))
        #expect(finished.status == 0)
        let events = Self.events(finished.stdout, job: id)
        #expect(events.filter { $0["event"] as? String == "lease_lost" }.isEmpty)
        #expect(
            events.filter { $0["event"] as? String == "job_finished" }.map { $0["state"] as? String }
                == ["completed"])
        // Tried every few seconds for 70 s and more, and said so a few times, not on every try.
        let errors = events.filter { $0["event"] as? String == "queue_error" }.count
        #expect((1...8).contains(errors), "\(errors) queue_error lines")
        #expect(try await reopened.attempts(of: id).map(\.outcome) == ["completed"])
        #expect(try await reopened.job(id: id)?.attempts == 1)
    }

    /// A stop while an outcome waits for the database ends the worker at once rather than when the database
    /// comes back; the job is run again once its lease has expired.
    @Test(arguments: QueueBackend.available)
    func aStopDuringAnOutageLeavesTheJobToItsLease(backend: QueueBackend) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(backend, directory: directory)
        let (worker, id) = try await Self.outageAtTheFinish(database, lease: 2)
        worker.signal(SIGTERM)
        // The outage lasts until the worker has ended: that it ends at all is the stop not waiting for it.
        let stopped = try await worker.finish(within: .seconds(120))
        #expect(stopped.status == 0)
        #expect(
            Self.events(stopped.stdout, job: id).map { $0["event"] as? String }.last == "outcome_unwritten")
        try database.endOutage()
        let again = try await Self.work(database, buckets: directory, ["--lease", "2", "--until-idle"])
            .finish(within: .seconds(60))
        #expect(again.status == 0)
        let reopened = try await database.open()
        #expect(try await reopened.job(id: id)?.state == .completed)
        #expect(try await reopened.attempts(of: id).map(\.outcome) == ["lease_expired", "completed"])
    }

    /// SIGHUP (`systemctl reload`) reads the declarations again at once, as it does for the daemon, where
    /// its default action would end the worker, a death systemd counts as a clean exit and leaves stopped.
    @Test func aHangUpReloadsTheDeclarationsAndTheWorkerGoesOn() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(.sqlite, directory: directory)
        let queue = try await database.open()
        let buckets = directory.appendingPathComponent("buckets")
        try FileManager.default.createDirectory(at: buckets, withIntermediateDirectories: true)
        let declaration = buckets.appendingPathComponent("b.json")
        try #"{ "name": "b", "variants": { "small": { "width": 10, "format": "png" } } }"#
            .write(to: declaration, atomically: true, encoding: .utf8)
        let worker = try Self.work(database, buckets: buckets, [])
        let first = try await queue.enqueue(
            try NewJob(request: ObjectRequest(bucket: "b", path: "g.jpg"), source: "pictures/gradient.jpg")
        ).id
        try await Self.waitFor("a first job", within: .seconds(120)) {
            try await queue.job(id: first)?.state == .completed
        }
        worker.signal(SIGHUP)
        try await Self.waitFor("the reload", within: .seconds(120)) {
            worker.printed.contains("buckets_reloaded")
        }
        let id = try await queue.enqueue(
            try NewJob(request: ObjectRequest(bucket: "b", path: "h.jpg"), source: "pictures/gradient.jpg")
        ).id
        try await Self.waitFor("the job after the reload", within: .seconds(120)) {
            try await queue.job(id: id)?.state == .completed
        }
        worker.signal(SIGTERM)
        let finished = try await worker.finish(within: .seconds(60))
        #expect(finished.status == 0)
    }

    /// A lease lost mid-decode (another connection took the job) stops that decode at once: its child is
    /// killed, nothing of the attempt is stored or written back, one `lease_lost` is logged, and the
    /// worker goes on with the next job.
    @Test(arguments: QueueBackend.available)
    func aLeaseLostMidDecodeStopsTheDecode(backend: QueueBackend) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Database(backend, directory: directory)
        let queue = try await database.open()
        let root = directory.appendingPathComponent("root")
        let buckets = directory.appendingPathComponent("buckets")
        try FileManager.default.createDirectory(at: buckets, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"),
            to: root.appendingPathComponent("small.jpg"))
        // A 4000 × 3000 noise picture rendered as a 3000-pixel AVIF and twelve PNGs of noise near 4000 pixels,
        // which deflate cannot shrink: well over ten seconds of encoding, so the worker's first renewal, which
        // finds the lease stolen at the claim, comes while the job still runs however loaded the machine. The
        // stolen lease kills the decode, so the length costs nothing when the test passes.
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        vips.arguments = [
            "gaussnoise", root.appendingPathComponent("large.jpg").path + "[Q=80]", "4000", "3000",
        ]
        try vips.run()
        vips.waitUntilExit()
        try #require(vips.terminationStatus == 0)
        try """
        { "name": "slow", "allowedMimeTypes": ["image/*"],
          "variants": { "big": { "width": 3000, "format": "avif" }, "wide": { "width": 4000, "format": "png" },
                        "wider": { "width": 3900, "format": "png" }, "w1": { "width": 3990, "format": "png" },
                        "w2": { "width": 3980, "format": "png" }, "w3": { "width": 3970, "format": "png" },
                        "w4": { "width": 3960, "format": "png" }, "w5": { "width": 3950, "format": "png" },
                        "w6": { "width": 3940, "format": "png" }, "w7": { "width": 3930, "format": "png" },
                        "w8": { "width": 3920, "format": "png" }, "w9": { "width": 3910, "format": "png" },
                        "w10": { "width": 3890, "format": "png" } } }
        """.write(to: buckets.appendingPathComponent("slow.json"), atomically: true, encoding: .utf8)
        try database.prepareTheft()
        let worker = try Self.work(database, root: root.path, buckets: buckets, ["--lease", "1"])
        let id = try await queue.enqueue(
            try NewJob(request: ObjectRequest(bucket: "slow", path: "large.jpg"), source: "large.jpg")
        ).id
        try await Self.waitFor("the claim and its theft", within: .seconds(120)) {
            try await queue.job(id: id)?.leaseOwner == "thief"
        }
        let next = try await queue.enqueue(
            try NewJob(request: ObjectRequest(bucket: "slow", path: "small.jpg"), source: "small.jpg")
        ).id
        try await Self.waitFor("the next job", within: .seconds(180)) {
            try await queue.job(id: next)?.state == .completed
        }
        worker.signal(SIGTERM)
        let finished = try await worker.finish(within: .seconds(60))
        #expect(finished.status == 0)
        #expect(Self.events(finished.stdout, job: id).map { $0["event"] as? String } == ["lease_lost"])
        let job = try #require(try await queue.job(id: id))
        #expect(job.state == .running && job.leaseOwner == "thief")
        #expect(try await queue.attempts(of: id).map(\.outcome) == [nil])
        // Only the next job's rendition is stored: none of the large picture's.
        let stored = try #require(try await queue.job(id: next)?.metadata?.renditions?["big"]?.key)
        let files = try FileManager.default.subpathsOfDirectory(
            atPath: directory.appendingPathComponent("renditions").path)
        #expect(files.filter { $0.hasSuffix(".avif") } == [stored])
    }
}
