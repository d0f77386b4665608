import Testing

@testable import VariantdBench
@testable import VariantdCore

@Suite struct BaselineComparisonTests {
    let comparison = BaselineComparison(reference: "pyvips-once-8.14", tolerance: 0.1)

    func report(ours: Double, reference: Double, p95: Double = 100, rss: Double = 100, failed: [String] = [])
        -> BenchReport
    {
        BenchReport(runs: [
            BenchReportTests.run("variantd", "jpeg", perSecond: ours, p95: p95, rss: rss, failed: failed),
            BenchReportTests.run("pyvips-once-8.14", "jpeg", perSecond: reference, p95: 100),
        ])
    }

    @Test func aSlowerMachineIsNotARegression() {
        let baseline = report(ours: 4, reference: 3)
        let current = report(ours: 2, reference: 1.5, p95: 200).replacingReference(p95: 200)
        #expect(comparison.compare(current, with: baseline).regressions.isEmpty)
    }

    @Test func losingGroundOnTheReferenceIsARegression() throws {
        let baseline = report(ours: 4, reference: 3)
        let current = report(ours: 3, reference: 3)
        let regressions = comparison.compare(current, with: baseline).regressions
        let regression = try #require(regressions.first)
        #expect(regressions.count == 1)
        #expect(regression.corpus == "jpeg")
        #expect(regression.figure == "images/s ÷ pyvips-once-8.14")
    }

    @Test func changesWithinTheToleranceAreNotRegressions() {
        let baseline = report(ours: 4, reference: 3, rss: 100)
        let current = report(ours: 3.7, reference: 3, p95: 108, rss: 109)
        #expect(comparison.compare(current, with: baseline).regressions.isEmpty)
    }

    @Test func moreMemorySlowerTailAndNewFailuresAreRegressions() {
        let baseline = report(ours: 4, reference: 3, rss: 100)
        let current = report(ours: 4, reference: 3, p95: 150, rss: 130, failed: ["pug.heic"])
        let figures = comparison.compare(current, with: baseline).regressions.map(\.figure)
        #expect(figures == ["p95 ÷ pyvips-once-8.14 p95", "peak RSS MB", "failed files (pug.heic)"])
    }

    @Test func runsWithoutTheReferenceAreSkippedNotFailed() {
        let baseline = BenchReport(runs: [BenchReportTests.run("variantd", "jpeg", perSecond: 4)])
        let result = comparison.compare(baseline, with: baseline)
        #expect(result.regressions.isEmpty)
        #expect(result.skipped == ["jpeg jobs 1"])
    }
}

extension BenchReport {
    /// The same report with the reference's p95 changed, as on a machine that is slower throughout.
    fileprivate func replacingReference(p95: Double) -> BenchReport {
        var copy = self
        copy.runs = runs.map { run in
            var run = run
            if run.tool != "variantd" { run.p95Milliseconds = p95 }
            return run
        }
        return copy
    }
}
