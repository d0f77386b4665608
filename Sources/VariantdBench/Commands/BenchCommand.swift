import Foundation
package import VariantdCore
import Variants

/// `variantd bench`: W1 on every corpus, by us and (with `--anchors`) by the tools users would pick instead,
/// each corpus measured in a fresh process; a table or `--json`, and `--baseline` to catch regressions.
package struct BenchCommand: Subcommand {
    package static let name = "bench"
    package static let abstract =
        "Benchmark the standard job (W1) per corpus, beside pyvips, Pillow, vipsthumbnail, ImageMagick."
    package static let usage =
        "bench [--corpus <dir>] [--only <names>] [--jobs <n>] [--iterations <n>] [--rounds <n>] [--warmup <n>] "
        + "[--anchors | --anchor <tools>] [--json] [--baseline <file> [--reference <tool>] [--tolerance <percent>]] "
        + "[--report <file>] [--charts <dir>] [--store <s3://BUCKET[/PREFIX]>] "
        + "[--serve [--serve-requests <n>] [--serve-clients <n>] [--serve-soak <jobs>] [--overload] [--render [--render-seconds <n>]]] "
        + "[--quality [--previous <variantd>] [--auto]]"
    package static let details = """
        OPTIONS:
          --corpus <dir>          Pictures to measure, grouped by sniffed type into corpora (jpeg, heic,
                                  200mp, png, webp, avif, gif, and animated: GIF and WebP with more than
                                  one frame, whose WebP renditions are animated). Default: the
                                  third-party test corpus when it lies beside the checkout
                                  (docs/Benchmarks.md), else Samples/pictures.
          --only <names>          Comma-separated corpora to measure (e.g. jpeg,heic).
          --jobs <n>              Concurrent pipelines for the multi-core run (default: the core count).
          --iterations <n>        Timed passes over each corpus (default 3), after --warmup passes
                                  (default 1).
          --rounds <n>            Measure every row n times (default 1), round after round, and pool
                                  each row's rounds: a slow spell of the machine then falls on every
                                  tool alike, and the ratios between rows hold on a noisy machine.
          --anchors               Also run W1 through vipsthumbnail, pyvips on libvips 8.14 and on the
                                  pyvips-binary libvips, Pillow with pillow-heif, and ImageMagick, and
                                  the AVIF and ThumbHash comparisons (run scripts/bench-setup.sh once
                                  first).
          --anchor <tools>        Only these anchors, comma-separated: vipsthumbnail, pyvips-once-8.14,
                                  pyvips-once-binary, pyvips-once-ours, pillow, imagemagick (implies
                                  --anchors). Fewer rows make a round shorter, so with --rounds the rows
                                  compared meet the machine closer in time.
          --json                  Print the report as one JSON object with a "runs" array.
          --baseline <file>       Compare with a saved --json report: exit 1 when one of our figures, as a
                                  ratio to --reference measured in the same run, is worse by more than
                                  --tolerance percent (default 10), or when peak RSS grows by as much.
          --reference <tool>      Default: pyvips-once-8.14 when measured, else variantd-decode.
          --report <file>         Print the table of a saved --json report without measuring.
          --charts <dir>          Also write SVG charts into <dir>: throughput.svg (images/s per tool per
                                  corpus) and stages.svg (variantd's stage split per corpus), with the
                                  --baseline run drawn beside as before/after (see `variantd chart`).
          --store <s3://…>        Also measure variantd-s3: W1 with each source read from this object-storage
                                  location and the renditions stored there (AWS_* variables;
                                  docs/ObjectStorage.md), beside variantd-write on local disk.
          --serve                 Measure the daemon instead: start `variantd serve` (--slots: --jobs) on
                                  a loopback port and post W1 jobs over HTTP at 1 and --serve-clients
                                  concurrent clients; images/s, p50/p95/p99, statuses, memory of the
                                  daemon and its decoder children. Corpora: --only, default jpeg.
          --serve-requests <n>    Timed requests per corpus and concurrency (default 120).
          --serve-clients <n>     Concurrent clients of the second row (default: 2 × the core count).
          --render                With --serve: on-demand renditions (GET /v1/render): miss latency per
                                  format, and cache hits driven by wrk at 1, 16 and 64 connections,
                                  the daemon and nginx (one worker, the same file) each pinned to one
                                  core and wrk to another, then at 64 connections nothing pinned, the
                                  daemon at its defaults and nginx with a worker per core (bash
                                  scripts/bench-setup.sh installs both).
                                  With --store: the picture and its renditions in object storage, and
                                  the store's HEAD, GET, PUT, LIST and bytes received per miss and hit,
                                  then its hits beside a folder daemon's at 1 and 16 connections.
          --render-seconds <n>    Seconds wrk drives each round of --render hits (default 5).
          --serve-soak <jobs>     Then post this many jobs of Samples/pictures (10000 for the memory
                                  check), sampling memory every 1000; exit 1 when the daemon's RSS grows
                                  by more than 50 MB after the first 1000, or it does not exit 0 on
                                  SIGTERM.
          --overload              Then offer 5 × the rate of the busiest row, open loop, for
                                  --overload-seconds (default 120) over 64 connections: statuses (only
                                  200 and 503 with Retry-After expected; exit 1 otherwise), p99 of the
                                  503s (target ≤ 50 ms) and of the 200s, memory before and after.
          --quality               Measure rendition quality instead, nothing timed: the default bucket's
                                  renditions of the jpeg corpus (--only: other corpora) by variantd and
                                  by pyvips on the pyvips-binary libvips, per variant and per format:
                                  bytes, their ratio, and the mean SSIMULACRA2 (the PyPI package
                                  ssimulacra2 with the reference tool's blur and scale count) of each
                                  tool's rendition against its own lossless PNG of
                                  the same geometry; then whether the goals hold (JPEG ≤ 0.80× pyvips'
                                  bytes, WebP ≤ 0.92×, each mean score ≥ pyvips' − 1.0). Run
                                  scripts/bench-setup.sh once first.
          --previous <variantd>   With --quality: also render with this variantd binary (an older build)
                                  and set its bytes and score beside ours.
          --auto                  With --quality: also render every lossy variant at quality "auto" and
                                  set its bytes and score beside the declared quality's, with the CPU
                                  time of both batches (use a release build for the time).

        Rows: variantd (W1 in memory, renditions checked, not written), variantd-write (the same, written
        durably to a rendition store in a temporary directory), variantd-decode (sniff, probe and decode to
        the size W1 renders from: the floor), variantd-s3 (with --store), variantd-unpinned (HEIC: one picture at a time on every core).
        Jobs 1 runs are pinned to one core with taskset. Use a release build (swift build -c release).
        """

    let corpusDirectory: String?
    let only: Set<String>?
    let jobs: Int
    let iterations: Int
    let rounds: Int
    let warmups: Int
    let anchors: Bool
    /// `--anchor`: the anchors to run, by their names in `Anchor.all`; nil for all of them.
    let anchorTools: Set<String>?
    let json: Bool
    let baseline: String?
    let reference: String?
    let tolerance: Double
    let savedReport: String?
    let charts: String?
    let store: String?
    let serve: Bool
    let serveRequests: Int
    let serveClients: Int
    let serveSoak: Int?
    let overloadSeconds: Int?
    let render: Bool
    let renderSeconds: Int
    let quality: Bool
    /// `--previous`: another variantd binary whose renditions `--quality` sets beside ours.
    let previous: String?
    /// `--auto`: `--quality` also prices `quality: "auto"`.
    let qualityAuto: Bool

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        corpusDirectory = try arguments.option("--corpus")
        only = try arguments.option("--only").map { Set($0.split(separator: ",").map(String.init)) }
        jobs = try arguments.integer("--jobs", in: 1...256) ?? ProcessInfo.processInfo.activeProcessorCount
        iterations = try arguments.integer("--iterations", in: 1...1000) ?? 3
        rounds = try arguments.integer("--rounds", in: 1...100) ?? 1
        warmups = try arguments.integer("--warmup", in: 1...100) ?? 1
        tolerance = Double(try arguments.integer("--tolerance", in: 0...1000) ?? 10) / 100
        let chosen = try arguments.option("--anchor").map { Set($0.split(separator: ",").map(String.init)) }
        let known = Set(Anchor.all.map(\.tool))
        if let unknown = chosen?.subtracting(known).sorted().first {
            throw UsageError(
                "'--anchor' names no anchor '\(unknown)'; one of \(known.sorted().joined(separator: ", "))")
        }
        anchorTools = chosen
        anchors = arguments.flag("--anchors") || chosen != nil
        json = arguments.flag("--json")
        baseline = try arguments.option("--baseline")
        reference = try arguments.option("--reference")
        store = try arguments.option("--store")
        if let store, case .folder = try StoreLocation(store) {
            throw UsageError("'--store' takes an s3://BUCKET[/PREFIX] location, got '\(store)'")
        }
        savedReport = try arguments.option("--report")
        charts = try arguments.option("--charts")
        serve = arguments.flag("--serve")
        serveRequests = try arguments.integer("--serve-requests", in: 1...1_000_000) ?? 120
        let cores = ProcessInfo.processInfo.activeProcessorCount
        serveClients = try arguments.integer("--serve-clients", in: 1...256) ?? 2 * cores
        serveSoak = try arguments.integer("--serve-soak", in: 1...10_000_000)
        let overload = arguments.flag("--overload")
        let overloadSeconds = try arguments.integer("--overload-seconds", in: 1...3600)
        self.overloadSeconds = overload ? overloadSeconds ?? 120 : nil
        render = arguments.flag("--render")
        if render && !serve { throw UsageError("'--render' goes with '--serve'") }
        renderSeconds = try arguments.integer("--render-seconds", in: 1...3600) ?? 5
        quality = arguments.flag("--quality")
        if quality && serve { throw UsageError("'--quality' and '--serve' are separate modes") }
        previous = try arguments.option("--previous")
        if let previous {
            guard quality else { throw UsageError("'--previous' goes with '--quality'") }
            guard FileManager.default.isExecutableFile(atPath: previous) else {
                throw UsageError("'--previous' names no executable file '\(previous)'")
            }
        }
        qualityAuto = arguments.flag("--auto")
        if qualityAuto && !quality { throw UsageError("'--auto' goes with '--quality'") }
        let extra = try arguments.positionals()
        guard extra.isEmpty else { throw UsageError("bench takes no operands, got '\(extra[0])'") }
    }

    package func run() async throws -> ExitStatus {
        if render {
            Console.out(try await measureRender())
            return .success
        }
        let report: BenchReport
        if let savedReport {
            report = try Self.load(savedReport)
        } else if serve {
            report = try await measureServe()
        } else if quality {
            report = try measureQuality()
        } else {
            report = try measureCorpora()
        }
        let reference = reference ?? BaselineComparison.defaultReference(in: report)
        Console.out(json ? try WireJSON.line(report) : BenchTable.render(report, reference: reference))
        if let load = report.serve, savedReport == nil, !load.passed {
            Console.error("bench: the daemon did not exit 0 on SIGTERM, or its memory grew past the bound")
            return .failure
        }
        let saved = try baseline.map(Self.load)
        if let charts {
            for path in try BenchCharts.write(report, baseline: saved, to: charts) {
                Console.error("bench: chart \(path)")
            }
        }
        guard let saved else { return .success }
        let comparison = BaselineComparison(reference: reference, tolerance: tolerance)
            .compare(report, with: saved)
        for label in comparison.skipped {
            Console.error("bench: \(label): not in both runs with \(reference), not compared")
        }
        for regression in comparison.regressions { Console.error("bench: regression: \(regression)") }
        return comparison.regressions.isEmpty ? .success : .failure
    }

    static func load(_ path: String) throws(UsageError) -> BenchReport {
        guard let data = FileManager.default.contents(atPath: path),
            let report = try? WireJSON.decode(BenchReport.self, from: data)
        else { throw UsageError("'\(path)' is not a saved variantd bench --json report") }
        return report
    }

    /// The figures of a debug build say little; said once per mode, on stderr.
    static func warnOfDebugBuild() {
        #if DEBUG
            Console.error("bench: warning: debug build; build with -c release for meaningful figures")
        #endif
    }
}
