import Foundation
import Variants

/// `variantd work`: claims jobs from the queue and processes them in decoder children until stopped.
package struct WorkCommand: Subcommand {
    package static let name = "work"
    package static let abstract = "Process jobs from the durable queue (SQLite or PostgreSQL)."
    package static let usage =
        "work [--queue sqlite:<path> | --queue postgres://…] --root <store> --buckets <dir> [--workers <n>] "
        + "[--out <dir>] [--callback <url>] [--callback-secret-file <file>] [--listen <address>]"
    package static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH, or postgres://… shared by workers on many machines
                                  (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue and renditions live (default: $VARIANTD_DATA_DIR
                                  or /var/lib/variantd).
          --root <store>          The object store, a folder or s3://BUCKET[/PREFIX]: job sources are
                                  paths relative to it.
          --buckets <dir>         Bucket declarations, one <bucket>.json each, reloaded when the files
                                  change; a bucket without one gets metadata and no variants.
          --workers <n>           Jobs processed at once, each in its own decoder child (default: cores).
          --out <location>        The rendition store, a folder or s3://BUCKET[/PREFIX] (default:
                                  <data-dir>/renditions). s3:// locations read AWS_* variables
                                  (docs/ObjectStorage.md).
          --quarantine <file>     Remembers the sources that killed decoders, across restarts and
                                  processes (VARIANTD_QUARANTINE; default: <data-dir>/quarantine.sqlite3).
          --callback <url>        POST each final job's JSON here, retried; idempotent by job id.
          --callback-secret-file <file>
                                  Sign callbacks: Variantd-Signature: sha256=HMAC(secret, "<ts>.<body>").
          --lease <seconds>       Lease length; heartbeats renew it every quarter (default: 60).
          --poll <seconds>        Polling backstop when no notification arrives (default: 1).
          --backoff-ms <n>        Backoff unit: retry n waits min(300 s, unit × n⁴) ± 10 % (default: 1000).
          --retain <age>          Delete final jobs (and their attempt log) finished longer ago than this:
                                  45s, 30m, 12h, 7d, or never (default: 7d).
          --until-idle            Exit once no job is available or running (backfills, tests).
          --listen <address>      Serve GET /livez, /readyz and /metrics here: 127.0.0.1:PORT, [::1]:PORT,
                                  localhost:PORT or unix:PATH (port 0 picks a free one, printed in the
                                  "listening" line). No secret: health and metrics only.
          -h, --help              Show help information.

        Prints one JSON line per finished attempt. SIGTERM or SIGINT stops claiming; jobs in flight are
        finished and written back before the exit (status 0). SIGHUP reads --buckets again at once.
        """

    let location: QueueLocation
    let configuration: Worker.Configuration
    let policy: JobAttemptPolicy
    let listen: ListenAddress?

    package init(parsing arguments: inout Arguments) throws(UsageError) {
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
        let environment = ProcessInfo.processInfo.environment
        let renditions = try StoreLocation(try arguments.option("--out") ?? dataDirectory + "/renditions")
        var configuration = Worker.Configuration(
            objects: try StoreLocation(root).objects(environment: environment),
            buckets: try BucketRegistry(directory: buckets),
            renditions: try renditions.renditions(environment: environment), slots: slots)
        configuration.quarantine =
            try arguments.option("--quarantine") ?? ProcessInfo.processInfo.environment["VARIANTD_QUARANTINE"]
            ?? Quarantine.defaultFile(in: dataDirectory)
        if let lease = try arguments.integer("--lease", in: 1...3600) {
            configuration.lease = .seconds(lease)
        }
        if let poll = try arguments.integer("--poll", in: 1...60) {
            configuration.poll = .seconds(poll)
        }
        configuration.untilIdle = arguments.flag("--until-idle")
        if let retain = try arguments.option("--retain") {
            configuration.retain = retain == "never" ? nil : try AgeArgument.parse(retain, option: "--retain")
        }
        listen = try arguments.option("--listen").map { text throws(UsageError) in
            try ListenAddress(parsing: text)
        }
        var policy = JobAttemptPolicy()
        if let unit = try arguments.integer("--backoff-ms", in: 1...3_600_000) {
            policy.backoffUnit = .milliseconds(unit)
        }
        self.policy = policy
        configuration.callback = try CallbackReporter(
            url: try arguments.option("--callback"),
            secretFile: try arguments.option("--callback-secret-file"))
        _ = try arguments.positionals()
        self.configuration = configuration
    }

    package func run() async throws -> ExitStatus {
        do {
            return try await work()
        } catch let error as StartupError {
            Console.error("Error: \(error)")
            return .ioError
        }
    }

    private func work() async throws -> ExitStatus {
        let stop = InterruptSignal(
            onFirst: { _ in
                Console.error("variantd work: stopping after the jobs in hand; signal again to quit now")
            },
            onSecond: { ExitStatus(stoppedBy: $0).endProcess() },
            onHangUp: { [buckets = configuration.buckets] in Worker.reloadBuckets(buckets) })
        if let warning = ChildConfinement.landlockWarning {
            Console.out(try WireJSON.line(WorkEvent(event: "landlock_unavailable", message: warning)))
        }
        if let file = configuration.quarantine {
            do {
                _ = try Quarantine(file: file)
            } catch {
                throw StartupError("The quarantine file cannot be opened: \(error.message)")
            }
        }
        // One pool per process: as many connections as jobs run at once, plus one for the claim loop.
        let queue = try await location.open(policy: policy, connections: configuration.slots + 1)
        let worker = Worker(queue: queue, configuration: configuration, stop: stop)
        var server: HTTPServer?
        if let listen {
            let router = WorkStatusRouter(
                queue: queue, metrics: worker.metrics, pool: worker.pool, stop: stop)
            let options = HTTPServer.Options(
                threads: 1, connectionLimit: 32, connectionTimeout: 10,
                maxBodyBytes: 1024)
            do {
                server = try HTTPServer(listen: listen, options: options, responder: router)
            } catch {
                throw UsageError("Cannot listen on \(listen): \(error)")
            }
            var event = WorkEvent(event: "listening")
            event.listen = server?.address.description
            Console.out(try WireJSON.line(event))
        }
        await worker.run()
        server?.stop()
        return .success
    }
}
