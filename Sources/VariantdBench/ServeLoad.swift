import Foundation
import VariantdCore

/// `variantd bench --serve`: the standard job (W1) through the daemon as the storage server would call it —
/// `POST /v1/jobs` over HTTP on loopback — at 1 and at N concurrent clients, with the daemon's and its
/// decoder children's memory, and with `soakJobs`, whether memory stays bounded over many jobs.
struct ServeLoad: Sendable {
    var corpora: [BenchCorpus]
    /// The daemon's `--slots`.
    var slots: Int
    /// The concurrent clients of the second row of each corpus.
    var clients: Int
    /// Timed requests per row.
    var requests: Int
    /// `--serve-soak J`: J jobs on `soakFiles` after the rows.
    var soakJobs: Int?
    var soakFiles: [String]
    /// `--overload`: after the rows, offer this many times the busiest row's rate for `overloadSeconds`.
    var overloadFactor: Double? = nil
    var overloadSeconds = 120

    /// Soak memory is sampled every this many jobs.
    static let soakInterval = 1000
    /// The daemon's RSS may grow by at most this much between the first interval and the end of a soak.
    static let soakBoundMB = 50.0
    /// The decoder children's RSS, all together, may grow by at most this much over the same span (they
    /// trim after every job and are replaced after 500 jobs or past 1 GiB).
    static let soakChildrenBoundMB = 100.0

    func run() async throws -> ServeLoadReport {
        let daemon = try BenchDaemon(slots: slots)
        let client = LoadClient(base: daemon.base, secret: daemon.secret)
        var memory = [DaemonMemory.sample(daemon.id, at: "start")]
        var runs: [BenchRun] = []
        for corpus in corpora {
            let (jobs, failed) = try await warmUp(
                corpus.files, daemon: daemon, client: client, label: corpus.name)
            if memory.count == 1 { memory.append(DaemonMemory.sample(daemon.id, at: "warm-up")) }
            for concurrency in Set([1, clients]).sorted() {
                Console.error(
                    "bench: serve \(corpus.name) (\(jobs.count) files): \(requests) requests, "
                        + "clients \(concurrency)")
                let batch = try timedBatch(jobs, daemon: daemon)
                let ((answers, seconds), peak) = await DaemonMemory.peak(of: daemon.id) {
                    await client.post(batch, clients: concurrency, label: "\(corpus.name)-c\(concurrency)")
                }
                runs.append(
                    BenchStatistics.serveRun(
                        answers, seconds: seconds, corpus: corpus.name, clients: concurrency,
                        images: jobs.count, peakResidentMB: peak, failed: failed))
                memory.append(DaemonMemory.sample(daemon.id, at: "\(corpus.name) clients \(concurrency)"))
            }
        }
        var soak: ServeLoadReport.Soak?
        if let soakJobs { soak = try await self.soak(soakJobs, daemon: daemon, client: client) }
        var overload: ServeLoadReport.Overload?
        if let overloadFactor, let busiest = runs.last(where: { $0.corpus == corpora.first?.name }) {
            let (jobs, _) = try await warmUp(
                corpora[0].files, daemon: daemon, client: client, label: "overload")
            overload = await self.overload(
                jobs, factor: overloadFactor, sustainable: busiest.imagesPerSecond, daemon: daemon,
                client: client)
        }
        memory.append(DaemonMemory.sample(daemon.id, at: "end"))
        Console.error("bench: serve: SIGTERM, waiting for the daemon to drain")
        return ServeLoadReport(
            slots: slots, requests: requests, runs: runs, memory: memory, soak: soak, overload: overload,
            exitStatus: daemon.stop())
    }

    /// `requests` jobs cycling through the files, each on a distinct copy of its file so none finds its
    /// renditions already stored; a file of a format without distinct copies (none of the decoded ones)
    /// repeats the warm-up's source, said on stderr, and measures a job whose renditions are stored.
    private func timedBatch(_ jobs: [LoadClient.Job], daemon: BenchDaemon) throws -> [LoadClient.Job] {
        guard !jobs.isEmpty else { return [] }
        let perFile = (requests + jobs.count - 1) / jobs.count
        var copies: [[LoadClient.Job]] = []
        for job in jobs {
            guard let sources = try daemon.storeCopies(of: job.file, count: perFile) else {
                Console.error(
                    "bench: serve: no distinct copy of \((job.file as NSString).lastPathComponent): repeated")
                copies.append(Array(repeating: job, count: perFile))
                continue
            }
            copies.append(sources.map { LoadClient.Job(source: $0, file: job.file) })
        }
        return (0..<requests).map { copies[$0 % jobs.count][$0 / jobs.count] }
    }

    /// Posts every file once (at least `clients` jobs, so every decoder child starts) and keeps the files
    /// answered 200; the others are reported on stderr and returned by name, as the bench's warm-up does.
    private func warmUp(_ files: [String], daemon: BenchDaemon, client: LoadClient, label: String)
        async throws
        -> (jobs: [LoadClient.Job], failed: [String])
    {
        let jobs = zip(try daemon.store(files), files).map { LoadClient.Job(source: $0, file: $1) }
        guard !jobs.isEmpty else { return ([], []) }
        Console.error("bench: serve \(label): warm-up, \(jobs.count) files")
        let batch = (0..<max(jobs.count, clients)).map { jobs[$0 % jobs.count] }
        let (answers, _) = await client.post(batch, clients: clients, label: "\(label)-warm")
        var failed: [String] = []
        for answer in answers where answer.status != 200 && !failed.contains(answer.file) {
            let name = (answer.file as NSString).lastPathComponent
            Console.error(
                "bench: serve cannot process \(name): \(answer.status.map { "\($0)" } ?? "no answer") "
                    + answer.message.prefix(200))
            failed.append(answer.file)
        }
        return (
            jobs.filter { !failed.contains($0.file) },
            failed.map { ($0 as NSString).lastPathComponent }.sorted()
        )
    }

    private func overload(
        _ jobs: [LoadClient.Job], factor: Double, sustainable: Double, daemon: BenchDaemon, client: LoadClient
    ) async -> ServeLoadReport.Overload {
        let offered = sustainable * factor
        let connections = 64
        Console.error(
            "bench: serve overload: \(BenchTable.fixed(offered, 1)) jobs/s (\(BenchTable.fixed(factor, 0)) × "
                + "\(BenchTable.fixed(sustainable, 1))) for \(overloadSeconds) s over \(connections) connections"
        )
        let before = DaemonMemory.sample(daemon.id, at: "before overload")
        let answers = await client.offer(
            jobs, perSecond: offered, for: .seconds(overloadSeconds), clients: connections, label: "overload")
        let after = DaemonMemory.sample(daemon.id, at: "after overload")
        let busy = answers.filter { $0.status == 503 }
        let ok = answers.filter { $0.status == 200 }
        return ServeLoadReport.Overload(
            sustainablePerSecond: sustainable, offeredPerSecond: offered, seconds: Double(overloadSeconds),
            clients: connections, statuses: BenchStatistics.statuses(answers),
            busyWithoutRetryAfter: busy.filter { ($0.retryAfter ?? "").isEmpty }.count,
            p99BusyMilliseconds: busy.isEmpty
                ? nil : BenchStatistics.percentile(busy.map(\.seconds), 0.99) * 1000,
            p99OkMilliseconds: ok.isEmpty ? nil : BenchStatistics.percentile(ok.map(\.seconds), 0.99) * 1000,
            before: before, after: after)
    }

    private func soak(_ total: Int, daemon: BenchDaemon, client: LoadClient) async throws
        -> ServeLoadReport.Soak
    {
        let (jobs, _) = try await warmUp(soakFiles, daemon: daemon, client: client, label: "soak")
        var samples = [DaemonMemory.sample(daemon.id, at: "soak", jobs: 0)]
        var statuses: [String: Int] = [:]
        var seconds = 0.0
        var done = 0
        while done < total, !jobs.isEmpty {
            let count = min(Self.soakInterval, total - done)
            let batch = (done..<(done + count)).map { jobs[$0 % jobs.count] }
            let (answers, elapsed) = await client.post(batch, clients: clients, label: "soak-\(done)")
            done += count
            seconds += elapsed
            statuses.merge(BenchStatistics.statuses(answers), uniquingKeysWith: +)
            samples.append(DaemonMemory.sample(daemon.id, at: "soak", jobs: done))
            Console.error(
                "bench: serve soak: \(done)/\(total) jobs, daemon "
                    + "\(BenchTable.fixed(samples.last!.daemonMB, 1)) MB, children "
                    + "\(BenchTable.fixed(samples.last!.childrenMB, 1)) MB")
        }
        let first = samples.count > 2 ? samples[1] : samples[0]
        let growth = (samples.last?.daemonMB ?? 0) - first.daemonMB
        let childrenGrowth = (samples.last?.childrenMB ?? 0) - first.childrenMB
        return ServeLoadReport.Soak(
            jobs: done, files: jobs.count,
            imagesPerSecond: seconds > 0 ? Double(statuses["200"] ?? 0) / seconds : 0, statuses: statuses,
            samples: samples, growthMB: growth, boundMB: Self.soakBoundMB,
            childrenGrowthMB: childrenGrowth, childrenBoundMB: Self.soakChildrenBoundMB,
            withinBound: growth <= Self.soakBoundMB && childrenGrowth <= Self.soakChildrenBoundMB)
    }
}
