import Foundation
import Variants

/// What `variantd bench --json` prints and `--baseline` reads back: every run, and the two side measurements.
struct BenchReport: Sendable, Codable {
    var runs: [BenchRun]
    /// The AVIF comparison, when the corpus has a JPEG to make it from.
    var avif: AvifComparison?
    /// `variantd thumbhash-bench`'s figures, with thumbhash-rs beside them when the venv exists.
    var thumbhash: ThumbHashFigures?
    /// How the figures were taken, for whoever compares them later.
    var conditions: Conditions?
    /// `--serve`: the daemon under load (its runs are not in `runs`).
    var serve: ServeLoadReport?
    /// `--quality`: the default bucket's bytes and SSIMULACRA2 beside pyvips' (no runs).
    var quality: QualityComparison?

    /// Also what `variantd thumbhash-bench --json` prints.
    struct ThumbHashFigures: Sendable, Codable {
        var swift: ThumbHashBenchmark.Figures
        var thumbhashRs: ThumbHashBenchmark.Figures?
        /// Calls per round, and rounds, each figure is the median of (absent in older reports).
        var iterations: Int?
        var rounds: Int?

        init(
            _ benchmark: ThumbHashBenchmark, swift: ThumbHashBenchmark.Figures,
            thumbhashRs: ThumbHashBenchmark.Figures?
        ) {
            self.swift = swift
            self.thumbhashRs = thumbhashRs
            iterations = benchmark.iterations
            rounds = ThumbHashBenchmark.rounds
        }

        enum CodingKeys: String, CodingKey {
            case swift, iterations, rounds
            case thumbhashRs = "thumbhash_rs"
        }
    }

    struct Conditions: Sendable, Codable, Equatable {
        /// Timed passes over a corpus in each round.
        var iterations: Int
        /// Rounds of every row, interleaved (`--rounds`); nil in a report from a build without them.
        var rounds: Int?
        var warmups: Int
        var cores: Int
        /// The 1-minute load average before and after the run: how busy the machine was.
        var loadBefore: Double
        var loadAfter: Double
        var libvips: String
        var libheif: String

        /// This machine's, with the load average now as `loadAfter`.
        init(iterations: Int, rounds: Int = 1, warmups: Int, loadBefore: Double) {
            self.iterations = iterations
            self.rounds = rounds
            self.warmups = warmups
            cores = ProcessInfo.processInfo.activeProcessorCount
            self.loadBefore = loadBefore
            loadAfter = LoadAverage.oneMinute()
            libvips = BuildInfo.libvipsVersion
            libheif = BuildInfo.libheifVersion
        }

        enum CodingKeys: String, CodingKey {
            case iterations, rounds, warmups, cores, libvips, libheif
            case loadBefore = "load_before"
            case loadAfter = "load_after"
        }
    }

    /// The run of `tool` on `corpus` at `jobs`, if measured.
    func run(_ tool: String, _ corpus: String, jobs: Int = 1) -> BenchRun? {
        runs.first { $0.tool == tool && $0.corpus == corpus && $0.jobs == jobs }
    }
}
