import Foundation
import Variants

/// `variantd forget`: for a storage server that deletes objects and calls no endpoint, the command line's
/// `DELETE /v1/objects/<bucket>/<path>`.
package struct ForgetCommand: Subcommand {
    package static let name = "forget"
    package static let abstract =
        "Forget a deleted object's renditions: a job that finds it gone removes them."
    package static let usage =
        "forget [--queue <location>] --bucket <name> --path <object-path> [--source <relative>]"
    package static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --bucket <name>         The object's bucket.
          --path <object-path>    The object's path in the bucket.
          --source <relative>     Where its bytes were, relative to the workers' --root (default:
                                  <bucket>/<path>, as render requests and storage events name it).
          -h, --help              Show help information.

        Commits a job that looks at the object; a worker (variantd work, or serve's own) that finds it gone
        removes it from the object index and removes its renditions, declared and on-demand, unless another
        object holds the same bytes. An object still there is rendered instead. Prints
        {"created":true|false,"id":N} once the job is committed.
        """

    let location: QueueLocation
    let job: NewJob

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        guard let bucket = try arguments.option("--bucket") else {
            throw UsageError("Missing expected option '--bucket'")
        }
        guard let path = try arguments.option("--path") else {
            throw UsageError("Missing expected option '--path'")
        }
        let source = try arguments.option("--source") ?? bucket + "/" + path
        _ = try arguments.positionals()
        do {
            job = try NewJob(
                request: ObjectRequest(checking: bucket, path: path),
                version: "forget:" + String(Timestamp.now.milliseconds), source: source)
        } catch {
            throw UsageError(error.message)
        }
    }

    package func run() async throws -> ExitStatus {
        let queue = try await location.open()
        Console.out(try WireJSON.line(try await queue.enqueue(job)))
        return .success
    }
}
