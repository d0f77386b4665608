/// The SQLite queue's schema as versioned migrations, applied in order at start-up inside one
/// `BEGIN IMMEDIATE` transaction, each recorded in `variantd_schema_migrations`. Never edit a shipped
/// migration: add the next one.
enum SQLiteSchema {
    /// Epoch milliseconds now, for column defaults (plain-SQL enqueues omit the times).
    static let nowMilliseconds = "(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))"

    static let migrations: [(version: Int, sql: String)] = [
        (
            1,
            """
            CREATE TABLE variantd_jobs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                bucket TEXT NOT NULL CHECK (bucket <> ''),
                path TEXT NOT NULL CHECK (path <> ''),
                version TEXT NOT NULL DEFAULT '',
                source TEXT NOT NULL CHECK (source <> ''),
                content_type TEXT,
                state TEXT NOT NULL DEFAULT 'available' CHECK (state IN \(QueueSQL.allStates)),
                attempts INTEGER NOT NULL DEFAULT 0,
                max_attempts INTEGER NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
                crashes INTEGER NOT NULL DEFAULT 0,
                lease_owner TEXT,
                lease_token INTEGER,
                lease_expires_at INTEGER,
                result TEXT,
                created_at INTEGER NOT NULL DEFAULT \(nowMilliseconds),
                scheduled_at INTEGER NOT NULL DEFAULT \(nowMilliseconds),
                attempted_at INTEGER,
                finished_at INTEGER,
                reported_at INTEGER,
                CHECK ((finished_at IS NOT NULL) = (state IN \(QueueSQL.finalStates)))
            );
            CREATE UNIQUE INDEX variantd_jobs_dedupe ON variantd_jobs (bucket, path, version)
                WHERE state IN ('available', 'running');
            CREATE INDEX variantd_jobs_due ON variantd_jobs (scheduled_at, id) WHERE state = 'available';
            CREATE INDEX variantd_jobs_leases ON variantd_jobs (lease_expires_at) WHERE state = 'running';
            CREATE INDEX variantd_jobs_by_state ON variantd_jobs (state, id);
            CREATE INDEX variantd_jobs_unreported ON variantd_jobs (finished_at)
                WHERE reported_at IS NULL AND finished_at IS NOT NULL;
            CREATE TABLE variantd_job_attempts (
                token INTEGER PRIMARY KEY AUTOINCREMENT,
                job_id INTEGER NOT NULL REFERENCES variantd_jobs (id) ON DELETE CASCADE,
                attempt INTEGER NOT NULL,
                owner TEXT NOT NULL,
                claimed_at INTEGER NOT NULL,
                finished_at INTEGER,
                outcome TEXT,
                UNIQUE (job_id, attempt)
            );
            """
        ),
        (
            2,
            // Retention deletes the oldest final jobs first.
            """
            CREATE INDEX variantd_jobs_finished ON variantd_jobs (finished_at) WHERE finished_at IS NOT NULL;
            """
        ),
        (
            3,
            // The object index (`ObjectIndex`), and the look-up by checksum that tells whether bytes are shared.
            """
            CREATE TABLE variantd_objects (
                bucket TEXT NOT NULL CHECK (bucket <> ''),
                path TEXT NOT NULL CHECK (path <> ''),
                checksum TEXT NOT NULL CHECK (length(checksum) = 64),
                updated_at INTEGER NOT NULL DEFAULT \(nowMilliseconds),
                PRIMARY KEY (bucket, path)
            );
            CREATE INDEX variantd_objects_by_checksum ON variantd_objects (checksum);
            """
        ),
        (
            4,
            // Accounts' monthly transform allowances and the transforms counted against them
            // (`TransformAllowance`).
            """
            CREATE TABLE variantd_accounts (
                name TEXT PRIMARY KEY CHECK (name <> ''),
                transforms_per_month INTEGER NOT NULL CHECK (transforms_per_month >= 0),
                overage TEXT NOT NULL CHECK (overage IN ('allowed', 'refused')),
                updated_at INTEGER NOT NULL DEFAULT \(nowMilliseconds)
            );
            CREATE TABLE variantd_transforms (
                account TEXT NOT NULL,
                month TEXT NOT NULL CHECK (length(month) = 7),
                bucket TEXT NOT NULL,
                transform TEXT NOT NULL,
                counted_at INTEGER NOT NULL DEFAULT \(nowMilliseconds),
                PRIMARY KEY (account, month, bucket, transform)
            );
            """
        ),
    ]
}
