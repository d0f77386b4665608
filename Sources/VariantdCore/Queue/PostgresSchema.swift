/// The PostgreSQL queue's schema as versioned migrations, applied in order at start-up in one transaction
/// under an advisory lock (workers starting together apply each migration once), each recorded in
/// `variantd_schema_migrations`. Never edit a shipped migration: add the next one.
enum PostgresSchema {
    /// Serialises migrations across every process sharing the database.
    static let advisoryLock = 0x7661_7269_616e_7464  // "variantd"

    /// Channel notified (by a trigger, so plain-SQL enqueues notify too) when jobs are inserted.
    static let insertChannel = "variantd_jobs"
    /// Channel notified with `{"id","state","bucket","path","version"[,"result"]}` when a job becomes final.
    static let finishedChannel = "variantd_job_finished"

    static let migrations: [(version: Int, sql: String)] = [
        (
            1,
            """
            CREATE SEQUENCE variantd_lease_tokens;
            CREATE TABLE variantd_jobs (
                id bigserial PRIMARY KEY,
                bucket text NOT NULL CHECK (bucket <> ''),
                path text NOT NULL CHECK (path <> ''),
                version text NOT NULL DEFAULT '',
                source text NOT NULL CHECK (source <> ''),
                content_type text,
                state text NOT NULL DEFAULT 'available' CHECK (state IN \(QueueSQL.allStates)),
                attempts integer NOT NULL DEFAULT 0,
                max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
                crashes integer NOT NULL DEFAULT 0,
                lease_owner text,
                lease_token bigint,
                lease_expires_at timestamptz,
                result jsonb,
                created_at timestamptz NOT NULL DEFAULT now(),
                scheduled_at timestamptz NOT NULL DEFAULT now(),
                attempted_at timestamptz,
                finished_at timestamptz,
                reported_at timestamptz,
                CONSTRAINT variantd_jobs_finished CHECK ((finished_at IS NOT NULL) = (state IN \(QueueSQL.finalStates)))
            );
            CREATE UNIQUE INDEX variantd_jobs_dedupe ON variantd_jobs (bucket, path, version)
                WHERE state IN ('available', 'running');
            CREATE INDEX variantd_jobs_due ON variantd_jobs (scheduled_at, id) WHERE state = 'available';
            CREATE INDEX variantd_jobs_leases ON variantd_jobs (lease_expires_at) WHERE state = 'running';
            CREATE INDEX variantd_jobs_by_state ON variantd_jobs (state, id);
            CREATE INDEX variantd_jobs_unreported ON variantd_jobs (finished_at)
                WHERE reported_at IS NULL AND finished_at IS NOT NULL;
            CREATE TABLE variantd_job_attempts (
                token bigint PRIMARY KEY,
                job_id bigint NOT NULL REFERENCES variantd_jobs (id) ON DELETE CASCADE,
                attempt integer NOT NULL,
                owner text NOT NULL,
                claimed_at timestamptz NOT NULL,
                finished_at timestamptz,
                outcome text,
                UNIQUE (job_id, attempt)
            );
            CREATE FUNCTION variantd_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('\(insertChannel)', '');
                RETURN NULL;
            END $$;
            CREATE TRIGGER variantd_jobs_inserted AFTER INSERT ON variantd_jobs
                FOR EACH STATEMENT EXECUTE FUNCTION variantd_jobs_notify();
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
                bucket text NOT NULL CHECK (bucket <> ''),
                path text NOT NULL CHECK (path <> ''),
                checksum text NOT NULL CHECK (length(checksum) = 64),
                updated_at timestamptz NOT NULL DEFAULT now(),
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
                name text PRIMARY KEY CHECK (name <> ''),
                transforms_per_month bigint NOT NULL CHECK (transforms_per_month >= 0),
                overage text NOT NULL CHECK (overage IN ('allowed', 'refused')),
                updated_at timestamptz NOT NULL DEFAULT now()
            );
            CREATE TABLE variantd_transforms (
                account text NOT NULL,
                month text NOT NULL CHECK (length(month) = 7),
                bucket text NOT NULL,
                transform text NOT NULL,
                counted_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (account, month, bucket, transform)
            );
            """
        ),
    ]

    /// A time column as the epoch milliseconds `Timestamp` holds (rounded from the stored microseconds).
    static func milliseconds(_ column: String) -> String {
        "(extract(epoch FROM \(column)) * 1000)::bigint"
    }

    /// A column list selecting `columns` with every time as epoch milliseconds, as `Job(row:)` reads them.
    static func select(_ columns: [String], from table: String? = nil) -> String {
        let times: Set = [
            "lease_expires_at", "created_at", "scheduled_at", "attempted_at", "finished_at",
            "reported_at",
            "claimed_at",
        ]
        return columns.map { column in
            let qualified = table.map { "\($0).\(column)" } ?? column
            if times.contains(column) { return milliseconds(qualified) }
            if column == "result" { return "\(qualified)::text" }
            return qualified
        }.joined(separator: ", ")
    }
}
