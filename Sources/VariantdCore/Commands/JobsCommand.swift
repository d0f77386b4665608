import Foundation

/// `variantd jobs`: lists jobs and their results as JSON lines.
package struct JobsCommand: Subcommand {
    package static let name = "jobs"
    package static let abstract = "List the queue's jobs and their results as JSON lines."
    package static let usage =
        "jobs [--queue <location>] [--state <state>] [--bucket <name>] [--after <id>] [--limit <n>]"
    package static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --state <state>         Only jobs in this state: \(JobState.allCases.map(\.rawValue).joined(separator: ", ")).
          --bucket <name>         Only jobs of this bucket.
          --after <id>            Only jobs with a larger id (to go on from the last line of an earlier run).
          --limit <n>             At most this many jobs (default: every one).
          -h, --help              Show help information.

        Each line is one job, in id order (oldest first): its object, state, attempts, lease, times, and its
        completion metadata ("metadata") or its last error ("error"). The queue is read a page at a time,
        so listing millions of jobs takes the memory of one page.
        """

    let location: QueueLocation
    let filter: JobFilter
    let after: Int64
    let limit: Int?

    /// Jobs read per query.
    static let pageSize = 500

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        let state = try arguments.option("--state")
        let parsedState = try state.map { text throws(UsageError) in
            guard let state = JobState(rawValue: text) else {
                throw UsageError("Unknown job state '\(text)'")
            }
            return state
        }
        filter = JobFilter(state: parsedState, bucket: try arguments.option("--bucket"))
        after = Int64(try arguments.integer("--after", in: 0...Int.max) ?? 0)
        limit = try arguments.integer("--limit", in: 1...Int.max)
        _ = try arguments.positionals()
    }

    package func run() async throws -> ExitStatus {
        // Listing only reads: opening a SQLite file that is not there would create it, an empty queue at a
        // mistyped path, or one owned by root that the worker's user then cannot write.
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            Console.error("Error: there is no queue at \(path)")
            return .noInput
        }
        let queue = try await location.open()
        var cursor = after
        var left = limit ?? .max
        while left > 0 {
            let page = try await queue.jobs(filter, after: cursor, limit: min(left, Self.pageSize))
            for job in page { Console.out(try WireJSON.line(job)) }
            guard let last = page.last, page.count == min(left, Self.pageSize) else { break }
            cursor = last.id
            left -= page.count
        }
        return .success
    }
}
