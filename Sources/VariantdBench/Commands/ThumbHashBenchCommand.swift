import Foundation
package import VariantdCore

/// `variantd thumbhash-bench`: ThumbHash encode and decode per operation, optionally beside thumbhash-rs.
package struct ThumbHashBenchCommand: Subcommand {
    package static let name = "thumbhash-bench"
    package static let abstract = "Time ThumbHash encode and decode, optionally beside thumbhash-rs."
    package static let usage = "thumbhash-bench [--json] [--iterations <n>] [--compare]"
    package static let details = """
        Times encode and decode per operation on 100x100 inputs, the median of 5 rounds (use a release
        build).

        OPTIONS:
          --iterations <n>        Operations per timing round (default 2000).
          --compare               Also time thumbhash-rs (the Rust crate) through its Python binding, from
                                  .build/bench-venv; run scripts/bench-setup.sh once to create it.
          --json                  Print the figures as JSON.
        """

    let json: Bool
    let iterations: Int
    let compare: Bool

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        json = arguments.flag("--json")
        compare = arguments.flag("--compare")
        iterations = try arguments.integer("--iterations", in: 1...1_000_000) ?? 2000
        let operands = try arguments.positionals()
        guard operands.isEmpty else { throw UsageError("Unexpected argument '\(operands[0])'") }
    }

    package func run() async throws -> ExitStatus {
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
        } else {
            Console.out(Self.table(iterations: iterations, swift: swift, rust: rust))
        }
        return .success
    }

    private static func table(
        iterations: Int, swift: ThumbHashBenchmark.Figures, rust: ThumbHashBenchmark.Figures?
    ) -> String {
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
        return lines.joined(separator: "\n")
    }
}
