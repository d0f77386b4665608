import Testing

@testable import VariantdBench

@Suite struct MeasurementPoolingTests {
    private let first = Measurement(
        tool: nil, jobs: 1, iterations: 2, wallSeconds: 2, peakResidentKiB: 1000,
        images: [
            .init(file: "/c/a.jpg", seconds: [0.1, 0.3], width: 2000, height: 1000),
            .init(file: "/c/b.jpg", seconds: [0.2, 0.4], width: 1000, height: 1000),
        ],
        failed: [], stages: ["decode": 0.6])
    private let second = Measurement(
        tool: nil, jobs: 1, iterations: 2, wallSeconds: 3, peakResidentKiB: 1500,
        images: [.init(file: "/c/a.jpg", seconds: [0.5, 0.7], width: 2000, height: 1000)],
        failed: [.init(file: "/c/b.jpg", error: "out of memory")], stages: ["decode": 0.4, "hash": 0.1])

    @Test func processesSideBySideAddUpToOneRunOfAllTheirJobs() {
        let together = Measurement.concurrent([first, second], passes: 4)
        #expect(together.jobs == 2)
        #expect(together.iterations == 4)
        #expect(together.wallSeconds == 3)
        #expect(together.peakResidentKiB == 2500)
        #expect(together.images.map(\.file) == ["/c/a.jpg"])
        #expect(together.images.first?.seconds == [0.1, 0.3, 0.5, 0.7])
        #expect(together.failed.map(\.file) == ["/c/b.jpg"])
        #expect(together.stages == ["decode": 1.0, "hash": 0.1])

        let run = BenchStatistics.run(together, tool: "variantd", corpus: "jpeg")
        #expect(run.imagesPerSecond == 4.0 / 3)  // 4 timed runs of a.jpg in the longest part's 3 s
        #expect(run.stages["decode"] == 0.25)  // per pass: 1.0 s over 4 passes
    }

    /// Processes that say when they ran are timed from the first one's start to the last one's end: one
    /// that started late is not credited with the time the other was already working.
    @Test func processesSideBySideAreTimedFromTheFirstStartToTheLastEnd() {
        var early = first
        (early.timedFrom, early.timedTo) = (100.0, 102.0)
        var late = second
        (late.timedFrom, late.timedTo) = (100.5, 103.5)
        let together = Measurement.concurrent([early, late], passes: 4)
        #expect(together.wallSeconds == 3.5)
        #expect(together.iterations == 4)
        #expect(BenchStatistics.run(together, tool: "variantd", corpus: "jpeg").imagesPerSecond == 4.0 / 3.5)

        var unsaid = late
        unsaid.timedFrom = nil
        #expect(Measurement.concurrent([early, unsaid], passes: 4).wallSeconds == 3)
    }

    /// Rounds interleaved with the other tools' read as one longer run: the rate is every timed pass over
    /// all the rounds' wall clocks, so a slow minute of the machine weighs on every tool alike.
    @Test func roundsOneAfterAnotherAddUpToOneLongerRun() {
        let rounds = Measurement.sequential([first, second])
        #expect(rounds.jobs == 1)
        #expect(rounds.iterations == 4)
        #expect(rounds.wallSeconds == 5)
        #expect(rounds.peakResidentKiB == 1500)
        #expect(rounds.images.first?.seconds == [0.1, 0.3, 0.5, 0.7])
        #expect(rounds.failed.map(\.file) == ["/c/b.jpg"])
        #expect(rounds.stages == ["decode": 1.0, "hash": 0.1])
        #expect(BenchStatistics.run(rounds, tool: "variantd", corpus: "jpeg").imagesPerSecond == 4.0 / 5)
    }
}
