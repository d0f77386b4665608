import Foundation

/// `variantd serve`: the sidecar daemon the storage server calls during an upload.
package struct ServeCommand: Subcommand {
    package static let name = "serve"
    package static let abstract =
        "Serve metadata and renditions over HTTP to the storage server (sidecar daemon)."
    package static let usage = "serve --root <dir> [--listen <address>] [--buckets <dir>] [options]"
    package static let details = """
        OPTIONS (each also read from its environment twin, shown after it; a flag wins):
          --listen <address>      127.0.0.1:PORT, [::1]:PORT, localhost:PORT or unix:PATH
                                  (VARIANTD_LISTEN; default 127.0.0.1:8089; port 0 picks a free one).
          --root <dir>            Where stored objects live, a folder or s3://BUCKET[/PREFIX]; a job's
                                  source is confined to it (VARIANTD_ROOT; required).
          --out <dir>             The rendition store, a folder or s3://BUCKET[/PREFIX] (VARIANTD_OUT;
                                  default: the root). s3:// reads AWS_* variables
                                  (docs/ObjectStorage.md).
          --quarantine <file>     Remembers the sources that killed decoders, across restarts and
                                  processes (VARIANTD_QUARANTINE; default: <out>/.quarantine.sqlite3,
                                  or <data-dir>/quarantine.sqlite3 when --out is s3://).
          --data-dir <dir>        variantd's state folder (VARIANTD_DATA_DIR; default /var/lib/variantd).
          --buckets <dir>         Bucket declarations, <name>.json each; reloaded on SIGHUP
                                  (VARIANTD_BUCKETS).
          --queue <location>      sqlite:PATH or postgres://…: the durable queue that async jobs, storage
                                  events and deletions commit jobs to (VARIANTD_QUEUE; default
                                  sqlite:<data-dir>/queue.sqlite3).
          --workers <n>           Jobs of the queue the daemon renders itself, beside its render slots
                                  (VARIANTD_WORKERS; default 1, or 0 with --queue: variantd work
                                  processes render them).
          --callback <url>        Where the daemon's workers POST each final job, HMAC-signed with
                                  --callback-secret-file (VARIANTD_CALLBACK, VARIANTD_CALLBACK_SECRET_FILE).
          --callback-secret-file <file>
                                  The key that signs callbacks.
          --slots <n>             Render slots: decoder children at work at once (VARIANTD_SLOTS;
                                  default: the number of cores).
          --queue-depth <n>       Jobs that may wait for a slot before 503 (VARIANTD_QUEUE_DEPTH;
                                  default: 4 × slots).
          --secret-file <file>    The shared secret, required on TCP (VARIANTD_SECRET_FILE; or the
                                  secret itself in VARIANTD_SECRET).
          --deadline <seconds>    Per-job limit, after which the decoder child is killed
                                  (VARIANTD_DEADLINE; default 60).
          --grace <seconds>       How long SIGTERM waits for jobs in flight (VARIANTD_GRACE; default 30).
          --max-body <bytes>      Largest job request body (VARIANTD_MAX_BODY; default 1048576).
          --io-timeout <seconds>  Idle time before a connection is closed (VARIANTD_IO_TIMEOUT;
                                  default 30).
          --header-timeout <seconds>
                                  Time a request head may take from its first byte, after which
                                  its connection is closed (VARIANTD_HEADER_TIMEOUT; default 10).
          --min-body-rate <bytes> Bytes per second a request body must average once it has taken
                                  --header-timeout; 0 sets none (VARIANTD_MIN_BODY_RATE; default 1024).
          --max-connections <n>   Connections open at once (VARIANTD_MAX_CONNECTIONS; default 256).
          --url-key-file <file>   The key signed render URLs of private buckets are checked with
                                  (VARIANTD_URL_KEY_FILE; without it only the secret opens them).
          --max-age <seconds>     Cache-Control max-age of public buckets' renditions
                                  (VARIANTD_MAX_AGE; default 86400).
          --rendition-cache <dir> Where renditions read from an s3:// --out are kept on local disk, so
                                  hits need not ask the store (VARIANTD_RENDITION_CACHE; default
                                  <data-dir>/rendition-cache).
          --rendition-cache-size <bytes>
                                  The cache's budget, least recently used out first; 0 keeps none
                                  (VARIANTD_RENDITION_CACHE_SIZE; default 1073741824).
          --on-demand-budget <bytes>
                                  Bytes the renditions of transforms may take in the rendition store,
                                  least recently used removed first; declared variants are never
                                  removed; 0 bounds nothing (VARIANTD_ON_DEMAND_BUDGET; default 0).
          --source-ttl <seconds>  How long an s3:// --root object's identity is trusted without asking
                                  the store again; a storage event for it ends that at once; 0 asks
                                  on every request (VARIANTD_SOURCE_TTL; default 5).
          -h, --help              Show help information.

        ENDPOINTS: POST /v1/jobs[?async=1], GET|HEAD /v1/render/<bucket>/<path>?<options> and
                   POST /v1/render (docs/Render.md), POST /v1/events and
                   DELETE /v1/objects/<bucket>/<path> (docs/Lifecycle.md), GET /livez, GET /readyz,
                   GET /metrics (see docs/Serve.md).
        SIGNALS: SIGTERM or SIGINT drains (exit 0 when every job was answered), SIGHUP reloads --buckets.
        Logs: one JSON line per job and per lifecycle event on stderr.
        """

    let configuration: ServeConfiguration

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        configuration = try ServeConfiguration(
            parsing: &arguments, environment: ProcessInfo.processInfo.environment)
    }

    package func run() async throws -> ExitStatus {
        do {
            return try await Daemon(configuration: configuration).run()
        } catch let error as StartupError {
            Console.error("Error: \(error)")
            return .ioError
        }
    }
}
