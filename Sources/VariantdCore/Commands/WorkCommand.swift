import Foundation
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd work`: claims jobs from the queue and processes them in decoder children until stopped.
struct WorkCommand: Subcommand {
    static let name = "work"
    static let abstract = "Process jobs from the durable queue (SQLite or PostgreSQL)."
    static let usage =
        "work [--queue sqlite:<path> | --queue postgres://…] --root <store> --buckets <dir> [--workers <n>] "
        + "[--out <dir>] [--callback <url>] [--callback-secret-file <file>]"
    static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH, or postgres://… shared by workers on many machines
                                  (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue and renditions live (default: $VARIANTD_DATA_DIR
                                  or /var/lib/variantd).
          --root <store>          The object store: job sources are paths relative to it.
          --buckets <dir>         Bucket declarations, one <bucket>.json each, reloaded when the files
                                  change; a bucket without one gets metadata and no variants.
          --workers <n>           Jobs processed at once, each in its own decoder child (default: cores).
          --out <dir>             The rendition store (default: <data-dir>/renditions).
          --callback <url>        POST each final job's JSON here, retried; idempotent by job id.
          --callback-secret-file <file>
                                  Sign callbacks: Variantd-Signature: sha256=HMAC(secret, "<ts>.<body>").
          --lease <seconds>       Lease length; heartbeats renew it every quarter (default: 60).
          --poll <seconds>        Polling backstop when no notification arrives (default: 1).
          --backoff-ms <n>        Backoff unit: retry n waits min(300 s, unit × n⁴) ± 10 % (default: 1000).
          --until-idle            Exit once no job is available or running (backfills, tests).
          -h, --help              Show help information.

        Prints one JSON line per finished attempt. SIGTERM or SIGINT stops claiming; jobs in flight are
        finished and written back before the exit (status 0).
        """

    let location: QueueLocation
    let configuration: Worker.Configuration
    let policy: RetryPolicy

    init(parsing arguments: inout Arguments) throws(UsageError) {
        let (location, dataDirectory) = try QueueLocation.parse(&arguments)
        self.location = location
        guard let root = try arguments.option("--root") else {
            throw UsageError("Missing expected option '--root'")
        }
        guard let buckets = try arguments.option("--buckets") else {
            throw UsageError("Missing expected option '--buckets'")
        }
        let slots =
            try arguments.integer("--workers", in: 1...256)
            ?? ProcessInfo.processInfo.activeProcessorCount
        let renditions = try arguments.option("--out") ?? dataDirectory + "/renditions"
        var configuration = Worker.Configuration(
            objects: try ObjectFolder(root), buckets: try BucketRegistry(directory: buckets),
            renditions: try Self.renditionFolder(renditions), slots: slots)
        if let lease = try arguments.integer("--lease", in: 1...3600) {
            configuration.lease = .seconds(lease)
        }
        if let poll = try arguments.integer("--poll", in: 1...60) {
            configuration.poll = .seconds(poll)
        }
        configuration.untilIdle = arguments.flag("--until-idle")
        var policy = RetryPolicy()
        if let unit = try arguments.integer("--backoff-ms", in: 1...3_600_000) {
            policy.backoffUnit = .milliseconds(unit)
        }
        self.policy = policy
        let secretFile = try arguments.option("--callback-secret-file")
        if let callback = try arguments.option("--callback") {
            guard let url = URL(string: callback), ["http", "https"].contains(url.scheme ?? "") else {
                throw UsageError("'--callback' takes an http:// or https:// URL, got '\(callback)'")
            }
            let secret = try secretFile.map { path throws(UsageError) in
                guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
                    throw UsageError("The callback secret file '\(path)' cannot be read or is empty")
                }
                return [UInt8](
                    String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8
                )
            }
            configuration.callback = CallbackReporter(url: url, secret: secret)
        } else if secretFile != nil {
            throw UsageError("'--callback-secret-file' needs '--callback'")
        }
        _ = try arguments.positionals()
        guard FileManager.default.fileExists(atPath: root) else {
            throw UsageError("The store '\(root)' does not exist")
        }
        self.configuration = configuration
    }

    private static func renditionFolder(_ path: String) throws(UsageError) -> RenditionFolder {
        do {
            return try RenditionFolder(root: path)
        } catch {
            throw UsageError("The rendition store '\(path)' cannot be created: \(error.message)")
        }
    }

    func run() async throws -> ExitStatus {
        let stop = InterruptSignal(
            onFirst: { _ in
                Console.error("variantd work: stopping after the jobs in hand; signal again to quit now")
            },
            onSecond: { exit(128 + $0) })
        let queue = try await location.open(policy: policy)
        await Worker(queue: queue, configuration: configuration, stop: stop).run()
        return .success
    }
}
