import Testing

@testable import VariantdBench
@testable import VariantdCore

@Suite struct BenchStatisticsTests {
    @Test func percentilesInterpolateBetweenClosestRanks() {
        let values = [5.0, 1, 4, 2, 3]
        #expect(BenchStatistics.percentile(values, 0.5) == 3)
        #expect(BenchStatistics.percentile(values, 0) == 1)
        #expect(BenchStatistics.percentile(values, 1) == 5)
        #expect(abs(BenchStatistics.percentile(values, 0.95) - 4.8) < 1e-12)
        #expect(BenchStatistics.percentile([1, 2], 0.5) == 1.5)
    }

    @Test func percentilesOfTooFewValues() {
        #expect(BenchStatistics.percentile([], 0.5) == 0)
        #expect(BenchStatistics.percentile([7], 0.95) == 7)
    }

    @Test func runFiguresComeFromTheTimedImagesAndTheWallClock() {
        let measurement = Measurement(
            tool: nil, jobs: 2, iterations: 2, wallSeconds: 2,
            peakResidentKiB: 2048,
            images: [
                .init(file: "/c/a.jpg", seconds: [0.1, 0.3], width: 2000, height: 1000),
                .init(file: "/c/b.jpg", seconds: [0.2, 0.4], width: nil, height: nil),
            ],
            failed: [.init(file: "/c/bad.jpg", error: "truncated")],
            stages: ["decode": 0.6, "encode.large": 0.2])
        let run = BenchStatistics.run(
            measurement, tool: "pillow", corpus: "jpeg", sizes: ["/c/b.jpg": (width: 1000, height: 1000)])
        #expect(run.tool == "pillow")
        #expect(run.corpus == "jpeg")
        #expect(run.jobs == 2)
        #expect(run.images == 2)
        #expect(run.imagesPerSecond == 2)  // 4 timed runs in 2 s
        #expect(abs(run.megapixelsPerSecond - 3) < 1e-9)  // (2 MP + 1 MP) × 2 passes in 2 s
        #expect(abs(run.p50Milliseconds - 250) < 1e-9)
        #expect(run.peakResidentMB == 2)
        #expect(run.failed == ["bad.jpg"])
        #expect(run.stages == ["decode": 0.3, "encode.large": 0.1])
    }

    @Test func aToolThatNamesItselfKeepsItsName() {
        let measurement = Measurement(
            tool: "pyvips-once-8.18", jobs: 1, iterations: 1, wallSeconds: 0, peakResidentKiB: 0, images: [],
            failed: [], stages: [:])
        let run = BenchStatistics.run(measurement, tool: "pyvips-once-binary", corpus: "heic")
        #expect(run.tool == "pyvips-once-8.18")
        #expect(run.imagesPerSecond == 0)
    }

    /// Rounds pool into one row, and each round's own rate stays beside it for the round-by-round ratios.
    @Test func roundsPoolAndKeepEachRoundsRate() {
        func round(wall: Double) -> Measurement {
            Measurement(
                tool: nil, jobs: 1, iterations: 1, wallSeconds: wall, peakResidentKiB: 1024,
                images: [.init(file: "/c/a.jpg", seconds: [wall / 2, wall / 2], width: 10, height: 10)],
                failed: [], stages: [:])
        }
        let run = BenchStatistics.run(
            rounds: [round(wall: 1), round(wall: 4)], tool: "variantd", corpus: "jpeg")
        #expect(run.imagesPerSecond == 4.0 / 5)
        #expect(run.roundImagesPerSecond == [2, 0.5])
        let single = BenchStatistics.run(rounds: [round(wall: 1)], tool: "variantd", corpus: "jpeg")
        #expect(single.roundImagesPerSecond == nil)
    }
}
