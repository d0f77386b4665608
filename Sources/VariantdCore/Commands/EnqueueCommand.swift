import Foundation
import Variants

/// `variantd enqueue`: adds one job to the queue, or every object of a folder, an S3 prefix or a list (a
/// backfill); a repeat of a waiting or running job is a no-op.
package struct EnqueueCommand: Subcommand {
    package static let name = "enqueue"
    package static let abstract =
        "Add jobs for stored objects to the durable queue: one, or a whole folder, prefix or list."
    package static let usage =
        "enqueue [--queue <location>] --bucket <name> (--path <object-path> [--source <relative>] "
        + "[--content-type <type>] | --walk <folder>|s3://<bucket>[/<prefix>] | --from <file>) [--version <v>]"
    package static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --bucket <name>         The objects' bucket (a-z 0-9 . _ -); its declaration is the workers'
                                  <buckets>/<name>.json, which enqueue does not read.
          --path <object-path>    One object's path in the bucket.
          --source <relative>     Where its bytes are, relative to the workers' --root (default: the path).
          --content-type <type>   The type the uploader declared, used only when the bytes cannot say.
          --walk <location>       Every regular file under a folder, or every object under s3://BUCKET[/PREFIX]
                                  (all ListObjectsV2 pages; AWS_* variables, docs/ObjectStorage.md), its
                                  path relative to the location being the object path (and the source: run
                                  the workers with --root <location>).
          --from <file>           Object paths one per line (- for standard input), e.g. a storage
                                  server's export of its object list.
          --version <v>           The object's version; (bucket, path, version) is the dedupe key.
          --batch <n>             Jobs per transaction with --walk or --from (default: 1000).
          -h, --help              Show help information.

        With --path, prints {"created":true|false,"id":N} once the job is committed. With --walk or --from,
        streams the objects into the queue in batches with a progress line on a terminal, then prints
        {"listed","added","alreadyQueued","refused","unreadable","seconds"[,"error"]}; objects with a job
        waiting or running are left alone, so running it again after an interruption adds only what is
        missing.

        EXIT STATUS:
          0    every object listed is in the queue
          1    some path was refused
          64   usage error
          66   part of the source cannot be read (a name or a --from line not in UTF-8, a path too long)
          75   the queue failed, Ctrl-C or SIGTERM stopped it, or the listing broke off on a temporary
               error; run it again to add the rest
          77   access refused: credentials or bucket (401, 403), or a directory not readable
          (the same as batch's for the same causes: docs/Batch.md, "Exit statuses")
        """

    enum Mode {
        case one(NewJob)
        case many(ObjectListing, bucket: String, version: String, batch: Int)
    }

    let location: QueueLocation
    let mode: Mode

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        guard let bucket = try arguments.option("--bucket") else {
            throw UsageError("Missing expected option '--bucket'")
        }
        // The rule `POST /v1/jobs?async=1` applies: no declaration can have another name, so a worker would
        // render the job with no variants and no error.
        guard BucketDeclaration.isValidName(bucket) else {
            throw UsageError("'--bucket' takes a \(BucketDeclaration.nameRule), got '\(bucket)'")
        }
        let path = try arguments.option("--path")
        let walk = try arguments.option("--walk")
        let from = try arguments.option("--from")
        let source = try arguments.option("--source")
        let version = try arguments.option("--version") ?? ""
        let contentType = try arguments.option("--content-type")
        let batch = try arguments.integer("--batch", in: 1...100_000) ?? 1000
        _ = try arguments.positionals()
        guard [path, walk, from].compactMap({ $0 }).count == 1 else {
            throw UsageError("Give exactly one of '--path', '--walk' and '--from'")
        }
        if let path {
            do {
                mode = .one(
                    try NewJob(
                        request: ObjectRequest(
                            checking: bucket, path: path, declaredContentType: contentType),
                        version: version, source: source))
            } catch {
                throw UsageError(error.message)
            }
            return
        }
        guard source == nil, contentType == nil else {
            throw UsageError("'--source' and '--content-type' apply to one '--path' only")
        }
        let listing: ObjectListing
        if let walk {
            listing = try ObjectListing(walk: walk)
        } else {
            listing = try ObjectListing(from: from ?? "-")
        }
        mode = .many(listing, bucket: bucket, version: version, batch: batch)
    }

    package func run() async throws -> ExitStatus {
        switch mode {
        case .one(let job):
            let queue = try await location.open()
            Console.out(try WireJSON.line(try await queue.enqueue(job)))
            return .success
        case .many(let listing, let bucket, let version, let batch):
            let stop = InterruptSignal(
                onFirst: { _ in Console.error("variantd enqueue: stopping after the batch in hand") },
                onSecond: { ExitStatus(stoppedBy: $0).endProcess() })
            let queue = try await location.open(connections: BackfillRun.inFlight)
            let summary = await BackfillRun(
                queue: queue, listing: listing, bucket: bucket, version: version, batchSize: batch,
                showsProgress: FileDescriptor.standardError.isTerminal,
                stopRequested: { stop.received != nil }
            ).run()
            Console.out(try WireJSON.line(summary))
            if let cause = summary.unreadableCause { return cause.exitStatus }
            if summary.error != nil { return .temporaryFailure }
            return summary.complete ? .success : .failure
        }
    }
}
