/// `variantd jobs`: lists jobs and their results as JSON lines.
struct JobsCommand: Subcommand {
    static let name = "jobs"
    static let abstract = "List the queue's jobs and their results as JSON lines."
    static let usage = "jobs [--queue <location>] [--state <state>] [--limit <n>]"
    static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --state <state>         Only jobs in this state: \(JobState.allCases.map(\.rawValue).joined(separator: ", ")).
          --limit <n>             At most this many jobs, oldest first (default: 1000).
          -h, --help              Show help information.

        Each line is one job: its object, state, attempts, lease, times, and its completion metadata
        ("metadata") or its last error ("error").
        """

    let location: QueueLocation
    let state: JobState?
    let limit: Int

    init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        let state = try arguments.option("--state")
        self.state = try state.map { text throws(UsageError) in
            guard let state = JobState(rawValue: text) else {
                throw UsageError("Unknown job state '\(text)'")
            }
            return state
        }
        limit = try arguments.integer("--limit", in: 1...10_000_000) ?? 1000
        _ = try arguments.positionals()
    }

    func run() async throws -> ExitStatus {
        let queue = try await location.open()
        for job in try await queue.jobs(in: state, limit: limit) {
            Console.out(try WireJSON.line(job))
        }
        return .success
    }
}
