/// `variantd queue-bench`: the claim + finish throughput of no-op jobs on a queue.
struct QueueBenchCommand: Subcommand {
    static let name = "queue-bench"
    static let abstract = "Measure claim + finish throughput of no-op jobs on a queue."
    static let usage = "queue-bench [--queue <location>] [--jobs <n>] [--claimers <n>]"
    static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --jobs <n>              No-op jobs to enqueue, claim and finish (default: 1000).
          --claimers <n>          Concurrent claim loops in this process (default: 4).
          -h, --help              Show help information.

        Prints one JSON line: jobs, claimers, enqueueSeconds, claimFinishSeconds, jobsPerSecond. The jobs
        stay in the queue as completed, in a bucket named queue-bench-<time>; use a scratch queue.
        """

    let location: QueueLocation
    let jobs: Int
    let claimers: Int

    init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        jobs = try arguments.integer("--jobs", in: 1...1_000_000) ?? 1000
        claimers = try arguments.integer("--claimers", in: 1...64) ?? 4
        _ = try arguments.positionals()
    }

    func run() async throws -> ExitStatus {
        let queue = try await location.open()
        Console.out(
            try WireJSON.line(try await QueueBenchmark.run(on: queue, jobs: jobs, claimers: claimers)))
        return .success
    }
}
