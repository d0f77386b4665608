package import VariantdCore

/// `variantd chart BENCH.json [--baseline FILE] --out DIR`: the benchmark's SVG charts from a saved
/// `variantd bench --json` report, without measuring again.
package struct ChartCommand: Subcommand {
    package static let name = "chart"
    package static let abstract =
        "Draw SVG charts of a saved bench --json report, optionally against a baseline."
    package static let usage = "chart <bench.json> [--baseline <file>] --out <dir>"
    package static let details = """
        ARGUMENTS:
          <bench.json>            A report saved from `variantd bench --json`.

        OPTIONS:
          --baseline <file>       An earlier saved report, drawn beside as before/after: faded bars in
                                  throughput.svg, a "before" bar per corpus in stages.svg.
          --out <dir>             Where the charts go (created if needed): throughput.svg, images/s per
                                  tool per corpus; stages.svg, each stage's share of variantd's time per
                                  corpus, with the time per image above each bar.

        The paths written are printed on stdout, one per line.
        """

    let report: String
    let baseline: String?
    let output: String

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        baseline = try arguments.option("--baseline")
        guard let output = try arguments.option("--out") else {
            throw UsageError("Missing expected option '--out <dir>'")
        }
        self.output = output
        let operands = try arguments.positionals()
        guard let report = operands.first else {
            throw UsageError("Missing expected argument '<bench.json>'")
        }
        guard operands.count == 1 else { throw UsageError("Unexpected argument '\(operands[1])'") }
        self.report = report
    }

    package func run() async throws -> ExitStatus {
        let current = try BenchCommand.load(report)
        let saved = try baseline.map(BenchCommand.load)
        let paths: [String]
        do {
            paths = try BenchCharts.write(current, baseline: saved, to: output)
        } catch {
            Console.error("Error: the charts cannot be written to \(output): \(error)")
            return .ioError
        }
        for path in paths { Console.out(path) }
        return .success
    }
}
