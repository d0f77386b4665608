import Charts
import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench
@testable import VariantdCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The benchmark's charts from a report: the chart models, and `variantd chart` writing them as SVG.
@Suite struct BenchChartsTests {
    static func run(
        _ tool: String, _ corpus: String, jobs: Int = 1, imagesPerSecond: Double, images: Int = 6,
        stages: [String: Double] = [:]
    ) -> BenchRun {
        BenchRun(
            tool: tool, corpus: corpus, jobs: jobs, images: images, imagesPerSecond: imagesPerSecond,
            megapixelsPerSecond: 0, p50Milliseconds: 0, p95Milliseconds: 0, peakResidentMB: 0, failed: [],
            stages: stages)
    }

    static let current = BenchReport(runs: [
        run(
            "variantd", "jpeg", imagesPerSecond: 4.5,
            stages: ["decode": 0.6, "render.thumb": 0.05, "render.large": 0.15, "encode.thumb": 0.2]),
        run("pillow", "jpeg", imagesPerSecond: 4.1),
        run("variantd", "jpeg", jobs: 2, imagesPerSecond: 8.0),
        run("variantd", "heic", imagesPerSecond: 1.3, images: 9, stages: ["decode": 6, "encode.medium": 3]),
        run("pillow", "heic", imagesPerSecond: 0, images: 0),
    ])

    static let baseline = BenchReport(runs: [
        run("variantd", "jpeg", imagesPerSecond: 3.9, stages: ["decode": 0.9, "encode.thumb": 0.3])
    ])

    @Test func throughputHasABarPerToolAndCorpusWithTheBaselineBeforeIt() {
        let chart = BenchCharts.throughput(Self.current, baseline: Self.baseline)
        #expect(chart.series == ["variantd", "pillow", "variantd ×2"])
        #expect(chart.groups.map(\.label) == ["jpeg", "heic"])
        let jpeg = chart.groups[0].bars
        #expect(jpeg.map(\.isBaseline) == [true, false, false, false])
        #expect(jpeg.map { $0.segments.first?.value } == [3.9, 4.5, 4.1, 8.0])
        #expect(jpeg.map { $0.segments.first?.series } == [0, 0, 1, 2])
        #expect(chart.groups[1].bars.last?.caption == "fails")
    }

    @Test func stagesAreSharesOfOnePassWithTheTimePerImageAbove() throws {
        let chart = BenchCharts.stageSplit(Self.current, baseline: Self.baseline)
        #expect(chart.groups.map(\.label) == ["jpeg", "heic"])
        let jpeg = chart.groups[0].bars
        #expect(jpeg.map(\.label) == ["before", "now"])
        #expect(jpeg.map(\.caption) == ["200 ms", "167 ms"])
        let now = try #require(jpeg.last)
        #expect(abs(now.total - 100) < 1e-9)
        let share = Dictionary(uniqueKeysWithValues: now.segments.map { (chart.series[$0.series], $0.value) })
        #expect(abs(share["render", default: 0] - 20) < 1e-9)
        #expect(abs(share["decode", default: 0] - 60) < 1e-9)
        #expect(chart.groups[1].bars.map(\.label) == ["now"])
        #expect(chart.groups[1].bars.first?.caption == "1000 ms")
    }

    @Test func chartCommandWritesBothChartsAsWellFormedSVG() async throws {
        let root = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = root.appendingPathComponent("bench.json").path
        let baseline = root.appendingPathComponent("baseline.json").path
        try Data(try WireJSON.encode(Self.current)).write(to: URL(fileURLWithPath: report))
        try Data(try WireJSON.encode(Self.baseline)).write(to: URL(fileURLWithPath: baseline))
        let out = root.appendingPathComponent("charts").path
        let run = try await VariantdProcess.run(["chart", report, "--baseline", baseline, "--out", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == ["throughput.svg", "stages.svg"].map { out + "/" + $0 + "\n" }.joined())
        for name in ["throughput.svg", "stages.svg"] {
            let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: out + "/" + name)))
            #expect(parser.parse(), "\(name): \(String(describing: parser.parserError))")
        }
        // `bench --charts` draws the report it prints (here a saved one, so nothing is measured).
        let bench = try await VariantdProcess.run([
            "bench", "--report", report, "--baseline", baseline, "--charts", root.path + "/bench-charts",
        ])
        #expect(bench.stderr.contains("bench: chart \(root.path)/bench-charts/stages.svg"), "\(bench.stderr)")
        #expect(
            try String(contentsOfFile: root.path + "/bench-charts/stages.svg", encoding: .utf8)
                == String(contentsOfFile: out + "/stages.svg", encoding: .utf8))
        let missing = try await VariantdProcess.run(["chart", root.path + "/none.json", "--out", out])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("is not a saved variantd bench --json report"))
    }
}
