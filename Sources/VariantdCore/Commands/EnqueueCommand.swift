import Variants

/// `variantd enqueue`: adds one job to the queue; a repeat of a waiting or running job is a no-op.
struct EnqueueCommand: Subcommand {
    static let name = "enqueue"
    static let abstract = "Add a job for one stored object to the durable queue."
    static let usage =
        "enqueue [--queue <location>] --bucket <name> --path <object-path> [--source <relative>] [--version <v>] "
        + "[--content-type <type>]"
    static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --bucket <name>         The object's bucket (its declaration is <buckets>/<name>.json).
          --path <object-path>    The object's path in the bucket.
          --source <relative>     Where the bytes are, relative to the workers' --root (default: the path).
          --version <v>           The object's version; (bucket, path, version) is the dedupe key.
          --content-type <type>   The type the uploader declared, used only when the bytes cannot say.
          -h, --help              Show help information.

        Prints {"created":true|false,"id":N} once the job is committed.
        """

    let location: QueueLocation
    let job: NewJob

    init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        guard let bucket = try arguments.option("--bucket") else {
            throw UsageError("Missing expected option '--bucket'")
        }
        guard let path = try arguments.option("--path") else {
            throw UsageError("Missing expected option '--path'")
        }
        let source = try arguments.option("--source")
        let version = try arguments.option("--version") ?? ""
        let contentType = try arguments.option("--content-type")
        _ = try arguments.positionals()
        do {
            job = try NewJob(
                request: ObjectRequest(bucket: bucket, path: path, declaredContentType: contentType),
                version: version,
                source: source)
        } catch {
            throw UsageError(error.message)
        }
    }

    func run() async throws -> ExitStatus {
        let queue = try await location.open()
        Console.out(try WireJSON.line(try await queue.enqueue(job)))
        return .success
    }
}
