import Foundation
import Synchronization
import VariantdCore
import Variants

/// The default mode: W1 on every corpus, ours each in a fresh `bench-worker` process, then the anchors; with
/// `--rounds`, all of that again and again, each row pooling its rounds, so that a slow spell of the machine
/// falls on every tool's row alike instead of on whichever ran during it.
extension BenchCommand {
    func measureCorpora() throws -> BenchReport {
        Self.warnOfDebugBuild()
        let corpora = CorpusDiscovery.discover(corpusDirectory).filter { only?.contains($0.name) ?? true }
        guard !corpora.isEmpty else { throw UsageError("no pictures found to measure") }
        let loadBefore = LoadAverage.oneMinute()
        let chosen = Anchor.all.filter { anchorTools?.contains($0.tool) ?? true }
        let installed = chosen.filter(\.isInstalled)
        if anchors, installed.count < chosen.count {
            Console.error("bench: some anchors are not installed; run scripts/bench-setup.sh")
        }
        // Each tool's measurements of each corpus, one per round, in the order the rows are printed.
        var measured: [RowKey: [Measurement]] = [:]
        var rows: [RowKey] = []
        var sizes: [String: [String: (width: Int, height: Int)]] = [:]
        func record(_ measurement: Measurement, _ tool: String, _ corpus: BenchCorpus, jobs: Int) {
            let key = RowKey(corpus: corpus.name, tool: tool, jobs: jobs)
            if measured[key] == nil { rows.append(key) }
            measured[key, default: []].append(measurement)
        }
        for round in 1...rounds {
            for corpus in corpora {
                func ours(_ tool: String, _ mode: BenchWorker.Mode, jobs: Int, pinned: Bool) throws {
                    progress(corpus, tool, jobs, round: round)
                    // Jobs run as processes side by side, as the product runs its decoder children:
                    // pipelines sharing one process share libvips' worker threads, and two of them on two
                    // cores gave 1.65× one core's JPEG throughput where two processes gave 2.0×. They draw
                    // the timed runs from one ticket file, as the product's slots take jobs from one queue,
                    // so a core the host slows down does less of the work instead of leaving the other idle
                    // at the end, and begin them together, once all have warmed up.
                    let share = FileManager.default.temporaryDirectory.appendingPathComponent(
                        "variantd-bench-tickets-\(UUID().uuidString)"
                    ).path
                    defer { try? FileManager.default.removeItem(atPath: share) }
                    let arguments =
                        [
                            "bench-worker", "--mode", mode.rawValue, "--jobs", "1", "--iterations",
                            "\(iterations * jobs)", "--warmup", "\(warmups)", "--share", share, "--parts",
                            "\(jobs)",
                        ] + (mode == .s3 ? ["--store", store ?? ""] : []) + corpus.files
                    let parts = Mutex([Int: Result<Measurement, any Error>]())
                    DispatchQueue.concurrentPerform(iterations: jobs) { job in
                        let part = Result {
                            try MeasuringProcess.measure(Executable.current, arguments, pinned: pinned)
                        }
                        parts.withLock { $0[job] = part }
                    }
                    let measurement = Measurement.concurrent(
                        try parts.withLock { $0 }.sorted { $0.key < $1.key }.map { try $0.value.get() },
                        passes: iterations * jobs)
                    for image in measurement.images {
                        sizes[corpus.name, default: [:]][image.file] = (image.width ?? 0, image.height ?? 0)
                    }
                    record(measurement, tool, corpus, jobs: jobs)
                }
                try ours("variantd", .w1, jobs: 1, pinned: true)
                try ours("variantd-decode", .decode, jobs: 1, pinned: true)
                try ours("variantd-write", .write, jobs: 1, pinned: true)
                if store != nil { try ours("variantd-s3", .s3, jobs: 1, pinned: true) }
                if jobs > 1 { try ours("variantd", .w1, jobs: jobs, pinned: false) }
                if ["heic", "200mp"].contains(corpus.name), jobs > 1 {
                    try ours("variantd-unpinned", .w1, jobs: 1, pinned: false)
                }
                // The anchors render a still of an animated picture: no row of theirs to set beside ours.
                for anchor in anchors && corpus.name != "animated" ? installed : [] {
                    progress(corpus, anchor.tool, 1, round: round)
                    do {
                        let measurement = try anchor.measure(
                            corpus.files, iterations: iterations, warmups: warmups)
                        for failure in measurement.failed where round == 1 {
                            let name = (failure.file as NSString).lastPathComponent
                            let reason = failure.error.prefix(200)
                            Console.error("bench: \(anchor.tool) cannot process \(name): \(reason)")
                        }
                        record(measurement, anchor.tool, corpus, jobs: 1)
                    } catch {
                        Console.error("bench: \(anchor.tool) on \(corpus.name) did not finish: \(error)")
                        record(
                            Measurement(
                                jobs: 1, iterations: iterations, wallSeconds: 0, peakResidentKiB: 0,
                                images: [],
                                failed: corpus.files.map { .init(file: $0, error: "\(error)") }, stages: [:]),
                            anchor.tool, corpus, jobs: 1)
                    }
                }
            }
        }
        let runs = rows.map { key in
            BenchStatistics.run(
                rounds: measured[key] ?? [], tool: key.tool, corpus: key.corpus,
                sizes: sizes[key.corpus] ?? [:])
        }
        return BenchReport(
            runs: runs,
            avif: try AvifComparison.measure(corpora, iterations: iterations, withAnchors: anchors),
            thumbhash: anchors ? try ThumbHashBench.measureInWorker() : nil,
            conditions: .init(
                iterations: iterations, rounds: rounds, warmups: warmups, loadBefore: loadBefore))
    }

    private func progress(_ corpus: BenchCorpus, _ tool: String, _ jobs: Int, round: Int) {
        let of = rounds > 1 ? ", round \(round) of \(rounds)" : ""
        Console.error("bench: \(corpus.name) (\(corpus.files.count) files): \(tool), jobs \(jobs)\(of)")
    }
}

/// One row of the report: a tool at a concurrency on a corpus.
private struct RowKey: Hashable {
    var corpus: String
    var tool: String
    var jobs: Int
}
