import Foundation
package import VariantdCore

/// `variantd thumbhash bench`, and the same figures for `variantd bench --anchors`, taken in a fresh
/// `bench-worker` process.
package enum ThumbHashBench: ThumbHashBenchAction {
    package static func run(json: Bool, iterations: Int, compare: Bool) throws -> ExitStatus {
        let python = URL(filePath: ".build/bench-venv/bin/python3")
        if compare, !FileManager.default.isExecutableFile(atPath: python.path) {
            throw UsageError("'--compare' needs .build/bench-venv; run scripts/bench-setup.sh first")
        }
        #if DEBUG
            Console.error("warning: debug build; build with -c release for meaningful figures")
        #endif
        let benchmark = ThumbHashBenchmark(iterations: iterations)
        let swift = try benchmark.measureSwift()
        let rust = compare ? try benchmark.measureRust(python: python) : nil
        if json {
            Console.out(
                try WireJSON.line(BenchReport.ThumbHashFigures(benchmark, swift: swift, thumbhashRs: rust)))
            return .success
        }
        func cell(_ value: Double?) -> String {
            guard let value else { return "" }
            let text = String(format: "%.4f ms", value)
            return text + String(repeating: " ", count: max(1, 16 - text.count))
        }
        let rows: [(String, KeyPath<ThumbHashBenchmark.Figures, Double>)] = [
            ("encode 100x100 opaque", \.encodeOpaque), ("encode 100x100 alpha", \.encodeAlpha),
            ("decode opaque hash", \.decodeOpaque), ("decode alpha hash", \.decodeAlpha),
        ]
        var lines = ["per operation, median of \(ThumbHashBenchmark.rounds) rounds of \(iterations)"]
        lines.append("                       variantd        " + (rust == nil ? "" : "thumbhash-rs (Python)"))
        for (label, key) in rows {
            let padded = label + String(repeating: " ", count: 23 - label.count)
            lines.append(padded + cell(swift[keyPath: key]) + cell(rust?[keyPath: key]))
        }
        Console.out(lines.joined(separator: "\n"))
        return .success
    }

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
