import Foundation

/// Everything `variantd serve` is told, from its flags or their `VARIANTD_*` environment twins (a flag wins),
/// checked once so the daemon starts only with values it can run.
struct ServeConfiguration: Sendable {
    var listen: ListenAddress
    /// The object store: the folder or `s3://` location where stored source objects live; every job's
    /// `source` is confined to it.
    var objects: String
    /// The rendition store: the folder or `s3://` location renditions are written to.
    var renditions: String
    /// The file remembering sources that killed decoders (`Quarantine`).
    var quarantine: String
    /// A directory of bucket declarations, `<name>.json`.
    var buckets: String?
    /// The durable queue that `POST /v1/jobs?async=1`, storage events and deletions commit jobs to
    /// (`sqlite:PATH` or `postgres://…`; by default `queue.sqlite3` in the data folder, as for `work`).
    var queue: QueueLocation
    /// Jobs of the queue this daemon runs itself, beside its render slots: 1 by default with the default
    /// queue, so one `serve` is enough; 0 by default with `--queue`, whose jobs `variantd work` processes run.
    var workers: Int
    /// Where the daemon's own workers post each final job, as `work --callback` does.
    var callback: CallbackReporter?
    /// Render slots: decoder children working at once.
    var slots: Int
    /// Jobs that may wait for a slot; beyond slots + queue depth a job is refused with 503.
    var waitingCapacity: Int
    /// The Bearer secret; required on TCP, unused on a Unix socket.
    var secret: String?
    /// Wall-clock limit of one job's decode and render, after which its decoder child is killed.
    var deadline: Duration
    /// How long SIGTERM waits for jobs in flight.
    var grace: Duration
    /// Largest job request body.
    var maxBodyBytes: Int
    /// Seconds without I/O before a connection is closed.
    var ioTimeout: Int
    /// The head deadline and the body rate a client must keep.
    var deadlines: ClientDeadlines
    var maxConnections: Int
    /// The key signed render URLs of private buckets are checked with; nil accepts no signed URL.
    var urlKey: URLKey?
    /// Seconds public buckets' renditions may be cached (`Cache-Control: public, max-age=`).
    var maxAge: Int
    /// The folder where renditions read from object storage are kept, so hits need not ask the store.
    var renditionCache: String
    /// Bytes the rendition cache may hold; 0 keeps none.
    var renditionCacheBytes: Int
    /// Bytes the renditions of transforms may take in the rendition store; 0 bounds nothing.
    var onDemandBudget: Int
    /// How long an object's identity read from the store is trusted without asking again; zero asks on
    /// every request.
    var sourceTTL: Duration

    static let defaultListen = "127.0.0.1:8089"
    /// Shorter secrets are refused: they could be guessed over a long-lived loopback connection.
    static let minimumSecretLength = 16

    init(parsing arguments: inout Arguments, environment: [String: String]) throws(UsageError) {
        var source = Source(arguments: arguments, environment: environment)
        defer { arguments = source.arguments }
        listen = try ListenAddress(parsing: try source.string("--listen") ?? Self.defaultListen)
        guard let root = try source.string("--root") else {
            throw UsageError("Missing '--root' (or VARIANTD_ROOT): the directory of stored objects")
        }
        objects = root
        renditions = try source.string("--out") ?? root
        let dataDirectory = try source.string("--data-dir") ?? QueueLocation.defaultDataDirectory
        quarantine = try source.string("--quarantine") ?? Self.defaultQuarantine(renditions, dataDirectory)
        buckets = try source.string("--buckets")
        let queueGiven = try source.string("--queue")
        queue = try QueueLocation(parsing: queueGiven, dataDirectory: dataDirectory)
        workers = try source.integer("--workers", in: 0...256) ?? (queueGiven == nil ? 1 : 0)
        callback = try CallbackReporter(
            url: try source.string("--callback"), secretFile: try source.string("--callback-secret-file"))
        slots = try source.integer("--slots", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        waitingCapacity = try source.integer("--queue-depth", in: 0...10_000) ?? 4 * slots
        deadline = .seconds(try source.integer("--deadline", in: 1...3600) ?? 60)
        grace = .seconds(try source.integer("--grace", in: 0...3600) ?? 30)
        maxBodyBytes = try source.integer("--max-body", in: 1024...(64 << 20)) ?? (1 << 20)
        ioTimeout = try source.integer("--io-timeout", in: 1...3600) ?? 30
        maxConnections = try source.integer("--max-connections", in: 4...10_000) ?? 256
        deadlines = ClientDeadlines()
        if let seconds = try source.integer("--header-timeout", in: 1...3600) {
            deadlines.header = .seconds(seconds)
        }
        deadlines.minBodyRate =
            try source.integer("--min-body-rate", in: 0...(1 << 30)) ?? deadlines.minBodyRate
        urlKey = try source.string("--url-key-file").map { path throws(UsageError) in try URLKey(file: path) }
        maxAge = try source.integer("--max-age", in: 0...31_536_000) ?? 86_400
        renditionCache = try source.string("--rendition-cache") ?? dataDirectory + "/rendition-cache"
        renditionCacheBytes = try source.integer("--rendition-cache-size", in: 0...(1 << 50)) ?? (1 << 30)
        onDemandBudget = try source.integer("--on-demand-budget", in: 0...(1 << 50)) ?? 0
        sourceTTL = .seconds(try source.integer("--source-ttl", in: 0...86_400) ?? 5)
        secret = try Self.secret(file: try source.string("--secret-file"), environment: environment)
        _ = try source.arguments.positionals()
        if listen.isTCP && secret == nil {
            throw UsageError(
                "A TCP listener requires a shared secret: set VARIANTD_SECRET or '--secret-file'")
        }
    }

    /// Beside the renditions when they are a folder; in the data folder, where `work` keeps its own, when
    /// they are in object storage, which holds no SQLite file.
    private static func defaultQuarantine(_ renditions: String, _ dataDirectory: String) -> String {
        S3Location.isLocation(renditions)
            ? Quarantine.defaultFile(in: dataDirectory) : renditions + "/.quarantine.sqlite3"
    }

    private static func secret(file: String?, environment: [String: String]) throws(UsageError) -> String? {
        let text: String
        switch (file, environment["VARIANTD_SECRET"]) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw UsageError("Give the secret once: VARIANTD_SECRET or '--secret-file', not both")
        case (nil, .some(let value)):
            text = value
        case (.some(let path), nil):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("The secret file '\(path)' cannot be read")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard secret.count >= minimumSecretLength else {
            throw UsageError("The shared secret must be at least \(minimumSecretLength) characters")
        }
        return secret
    }

    /// Flags first, then their environment twins: `--queue-depth` ↔ `VARIANTD_QUEUE_DEPTH`.
    private struct Source {
        var arguments: Arguments
        let environment: [String: String]

        static func twin(_ flag: String) -> String {
            "VARIANTD_" + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
        }

        mutating func string(_ flag: String) throws(UsageError) -> String? {
            try arguments.option(flag) ?? environment[Self.twin(flag)]
        }

        mutating func integer(_ flag: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
            if let value = try arguments.integer(flag, in: range) { return value }
            guard let text = environment[Self.twin(flag)] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                let bounds = "\(range.lowerBound)...\(range.upperBound)"
                throw UsageError("\(Self.twin(flag)) takes a whole number in \(bounds), got '\(text)'")
            }
            return value
        }
    }
}
