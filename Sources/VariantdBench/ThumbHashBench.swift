import Foundation
import VariantdCore

/// ThumbHash's figures for `variantd bench --anchors`, the same as `variantd thumbhash-bench --json` prints,
/// taken in a fresh `bench-worker` process.
enum ThumbHashBench {
    /// `bench --anchors`: the figures from a pinned `bench-worker --mode thumbhash`.
    static func measureInWorker() throws -> BenchReport.ThumbHashFigures {
        Console.error("bench: ThumbHash encode and decode")
        return try WireJSON.decode(
            BenchReport.ThumbHashFigures.self,
            from: MeasuringProcess.run(
                Executable.current, ["bench-worker", "--mode", "thumbhash"], pinned: true))
    }

    /// Inside that worker: ours, and thumbhash-rs beside when the bench venv exists.
    static func figures() throws -> BenchReport.ThumbHashFigures {
        let benchmark = ThumbHashBenchmark(iterations: 2000)
        let python = URL(fileURLWithPath: BenchPaths.systemPython)
        let rust =
            FileManager.default.isExecutableFile(atPath: python.path)
            ? try benchmark.measureRust(python: python) : nil
        return BenchReport.ThumbHashFigures(benchmark, swift: try benchmark.measureSwift(), thumbhashRs: rust)
    }
}
