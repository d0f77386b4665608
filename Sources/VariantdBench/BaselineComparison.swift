/// `--baseline FILE`: compares this run with a saved one through ratios to a reference tool measured in
/// the same run, so a slower or busier machine does not read as a regression; only memory, which does not
/// depend on the machine's speed, is compared as it stands.
struct BaselineComparison: Sendable {
    /// One figure of ours that moved past the tolerance.
    struct Regression: Sendable, Equatable, CustomStringConvertible {
        var corpus: String
        var jobs: Int
        var figure: String
        var baseline: Double
        var current: Double

        var description: String {
            "\(corpus) jobs \(jobs): \(figure) was \(Self.format(baseline)), now \(Self.format(current))"
        }

        private static func format(_ value: Double) -> String {
            let hundredths = (value * 100).rounded() / 100
            return "\(hundredths)"
        }
    }

    /// The tool our figures are divided by; it must be in both runs.
    var reference: String
    /// Allowed relative change (0.1: 10 %) before a figure counts as a regression.
    var tolerance: Double
    /// Our tool's rows that are compared.
    var tool = "variantd"

    /// The reference when none is named: pyvips-once-8.14 when the report measured it, else our decode floor.
    static func defaultReference(in report: BenchReport) -> String {
        report.runs.contains { $0.tool == "pyvips-once-8.14" } ? "pyvips-once-8.14" : "variantd-decode"
    }

    /// The regressions of `current` against `baseline`, and the (corpus, jobs) pairs that could not be
    /// compared because one run lacks them or the reference.
    func compare(_ current: BenchReport, with baseline: BenchReport) -> (
        regressions: [Regression], skipped: [String]
    ) {
        var regressions: [Regression] = []
        var skipped: [String] = []
        for run in current.runs where run.tool == tool {
            let label = "\(run.corpus) jobs \(run.jobs)"
            guard let before = baseline.run(tool, run.corpus, jobs: run.jobs),
                let referenceNow = current.run(reference, run.corpus),
                let referenceBefore = baseline.run(reference, run.corpus),
                referenceNow.imagesPerSecond > 0, referenceBefore.imagesPerSecond > 0,
                referenceNow.p95Milliseconds > 0, referenceBefore.p95Milliseconds > 0
            else {
                skipped.append(label)
                continue
            }
            func check(_ figure: String, _ old: Double, _ new: Double, higherIsBetter: Bool) {
                let worse = higherIsBetter ? new < old * (1 - tolerance) : new > old * (1 + tolerance)
                if worse {
                    regressions.append(
                        Regression(
                            corpus: run.corpus, jobs: run.jobs, figure: figure, baseline: old, current: new))
                }
            }
            check(
                "images/s ÷ \(reference)", before.imagesPerSecond / referenceBefore.imagesPerSecond,
                run.imagesPerSecond / referenceNow.imagesPerSecond, higherIsBetter: true)
            check(
                "p95 ÷ \(reference) p95", before.p95Milliseconds / referenceBefore.p95Milliseconds,
                run.p95Milliseconds / referenceNow.p95Milliseconds, higherIsBetter: false)
            check("peak RSS MB", before.peakResidentMB, run.peakResidentMB, higherIsBetter: false)
            let newlyFailed = Set(run.failed).subtracting(before.failed)
            if !newlyFailed.isEmpty {
                regressions.append(
                    Regression(
                        corpus: run.corpus, jobs: run.jobs,
                        figure: "failed files (\(newlyFailed.sorted().joined(separator: ", ")))",
                        baseline: Double(before.failed.count), current: Double(run.failed.count)))
            }
        }
        return (regressions, skipped)
    }
}
