package import VariantdCore

/// `variantd queue-bench`: the claim + finish throughput of no-op jobs on a queue.
package struct QueueBenchCommand: Subcommand {
    package static let name = "queue-bench"
    package static let abstract = "Measure claim + finish throughput of no-op jobs on a queue."
    package static let usage =
        "queue-bench [--queue <location>] [--jobs <n>] [--backlog <n>] [--claimers <n>] [--batch <n>]"
    package static let details = """
        OPTIONS:
          --queue <location>      sqlite:PATH or postgres://… (default: sqlite:<data-dir>/queue.sqlite3).
          --data-dir <dir>        Where the default queue lives.
          --jobs <n>              No-op jobs to claim and finish (default: 1000).
          --backlog <n>           Further jobs enqueued first and left waiting, so the claims are measured
                                  with this many behind them (default: 0).
          --claimers <n>          Concurrent claim loops in this process (default: 4).
          --batch <n>             Jobs taken per claim (default: 1).
          -h, --help              Show help information.

        Prints one JSON line: jobs, backlog, claimers, batch, enqueueSeconds, enqueuedPerSecond,
        claimFinishSeconds, jobsPerSecond (claim + finish). The jobs stay in the queue (completed, or the
        backlog waiting) in a bucket named queue-bench-<time>; use a scratch queue.
        """

    let location: QueueLocation
    let jobs: Int
    let backlog: Int
    let claimers: Int
    let batch: Int

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        location = try QueueLocation.parse(&arguments).location
        jobs = try arguments.integer("--jobs", in: 1...1_000_000) ?? 1000
        backlog = try arguments.integer("--backlog", in: 0...10_000_000) ?? 0
        claimers = try arguments.integer("--claimers", in: 1...64) ?? 4
        batch = try arguments.integer("--batch", in: 1...1000) ?? 1
        _ = try arguments.positionals()
    }

    package func run() async throws -> ExitStatus {
        let queue = try await location.open(connections: claimers)
        let figures = try await QueueBenchmark.run(
            on: queue, jobs: jobs, backlog: backlog, claimers: claimers, batch: batch)
        Console.out(try WireJSON.line(figures))
        return .success
    }
}
