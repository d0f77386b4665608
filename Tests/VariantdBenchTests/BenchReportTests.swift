import Foundation
import Testing

@testable import VariantdBench
@testable import VariantdCore

@Suite struct BenchReportTests {
    static func run(
        _ tool: String, _ corpus: String, jobs: Int = 1, perSecond: Double, p95: Double = 100,
        rss: Double = 100,
        failed: [String] = []
    ) -> BenchRun {
        BenchRun(
            tool: tool, corpus: corpus, jobs: jobs, images: 6, imagesPerSecond: perSecond,
            megapixelsPerSecond: perSecond * 10, p50Milliseconds: p95 / 2, p95Milliseconds: p95,
            peakResidentMB: rss, failed: failed, stages: ["decode": 1.5])
    }

    @Test func jsonIsOneObjectWithARunsArrayOfTheIssuesShape() throws {
        let report = BenchReport(runs: [Self.run("variantd", "jpeg", perSecond: 4, failed: ["x.jpg"])])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(WireJSON.encode(report))) as? [String: Any])
        let runs = try #require(object["runs"] as? [[String: Any]])
        let first = try #require(runs.first)
        #expect(
            Set(first.keys) == [
                "tool", "corpus", "jobs", "images", "images_per_s", "mpix_per_s", "p50_ms", "p95_ms",
                "peak_rss_mb",
                "failed", "stages",
            ])
        #expect(first["tool"] as? String == "variantd")
        #expect(first["images_per_s"] as? Double == 4)
        #expect(first["failed"] as? [String] == ["x.jpg"])
        #expect((first["stages"] as? [String: Double])?["decode"] == 1.5)
    }

    @Test func savedReportsReadBack() throws {
        let report = BenchReport(runs: [Self.run("variantd", "heic", jobs: 2, perSecond: 1.25)])
        let decoded = try WireJSON.decode(BenchReport.self, from: WireJSON.encode(report))
        #expect(decoded.runs == report.runs)
        #expect(decoded.run("variantd", "heic", jobs: 2)?.imagesPerSecond == 1.25)
        #expect(decoded.run("variantd", "heic") == nil)
    }

    @Test func theTableShowsEveryRunAndTheDecodeRatio() {
        let report = BenchReport(runs: [
            Self.run("variantd", "jpeg", perSecond: 4, p95: 300),
            Self.run("variantd-decode", "jpeg", perSecond: 5, p95: 200),
        ])
        let text = BenchTable.render(report, reference: "variantd-decode")
        #expect(text.contains("| jpeg   | variantd-decode |"))
        #expect(text.contains("  jpeg: 1.50"))
    }

    /// The ratios are taken within each round and summarised, so one slow round of one tool shows as a
    /// range instead of moving the figure; rounds where a tool measured nothing are left out.
    @Test func roundByRoundRatiosAreMediansAndRangesOfEachRoundsRatio() throws {
        func run(_ tool: String, jobs: Int = 1, _ rounds: [Double]) -> BenchRun {
            var run = Self.run(
                tool, "jpeg", jobs: jobs, perSecond: rounds.reduce(0, +) / Double(rounds.count))
            run.roundImagesPerSecond = rounds
            return run
        }
        var report = BenchReport(runs: [
            run("variantd", [14, 15, 12]),
            run("variantd-decode", [30, 30, 30]),
            run("variantd", jobs: 2, [28, 27, 24]),
            run("pyvips-once-8.18", [10, 10, 8]),
            run("pillow", [0, 7, 6]),
        ])
        report.conditions = .init(iterations: 1, rounds: 3, warmups: 1, loadBefore: 0)
        let text = BenchTable.render(report, reference: nil)
        #expect(text.contains("within each of 3 rounds"))
        #expect(text.contains("  jpeg, variantd ÷ pyvips-once-8.18: 1.50 (1.40–1.50)"))
        #expect(text.contains("  jpeg, variantd ÷ pillow: 2.07 (2.00–2.14)"))
        #expect(text.contains("  jpeg, variantd jobs 2 ÷ jobs 1: 2.00 (1.80–2.00)"))
        #expect(!text.contains("jpeg, variantd ÷ variantd-decode"))

        report.conditions?.rounds = 1
        for index in report.runs.indices { report.runs[index].roundImagesPerSecond = nil }
        #expect(!BenchTable.render(report, reference: nil).contains("Round by round"))
    }
}
