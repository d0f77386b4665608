import Foundation
import Testing

@testable import VariantdCore

/// The waits each caller's schedule gives, as numbers, and how `run` ends, with waits of zero.
@Suite struct RetryScheduleTests {
    private func milliseconds(_ schedule: RetrySchedule, after attempts: ClosedRange<Int>) -> [Int] {
        attempts.map { Int((schedule.ceiling(after: $0) / .milliseconds(1)).rounded()) }
    }

    @Test func objectStorageWaitsDoubleFrom100MillisecondsUpTo2SecondsForFourTries() {
        let schedule = S3Retry.schedule
        #expect(milliseconds(schedule, after: 1...7) == [100, 200, 400, 800, 1600, 2000, 2000])
        #expect((1...3).allSatisfy(schedule.allowsRetry(after:)))
        #expect(!schedule.allowsRetry(after: 4))
    }

    @Test func objectStorageWaitsAreDrawnBetweenHalfAndAllOfTheCeiling() {
        let schedule = S3Retry.schedule
        for attempt in 1...6 {
            let ceiling = schedule.ceiling(after: attempt) / .seconds(1)
            for _ in 0..<50 {
                let delay = schedule.delay(after: attempt) / .seconds(1)
                #expect(delay >= ceiling * 0.5 - 1e-9 && delay <= ceiling + 1e-9)
            }
        }
    }

    @Test func callbacksAreTriedFiveTimesHalfASecondToFourSecondsApart() {
        let schedule = CallbackReporter(url: URL(string: "http://127.0.0.1:1/")!, secret: nil).schedule
        #expect(milliseconds(schedule, after: 1...4) == [500, 1000, 2000, 4000])
        #expect(schedule.delay(after: 3) == schedule.ceiling(after: 3))
        #expect(schedule.allowsRetry(after: 4) && !schedule.allowsRetry(after: 5))
    }

    @Test func outagesAreWaitedOutWithoutEnd() {
        let store = Worker.storeOutage
        #expect(milliseconds(store, after: 1...8) == [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000])
        #expect(milliseconds(FinishBatcher.outage, after: 1...6) == [250, 500, 1000, 2000, 4000, 5000])
        #expect(store.allowsRetry(after: 1_000_000) && FinishBatcher.outage.allowsRetry(after: 1_000_000))
        #expect(store.ceiling(after: 100_000) == .seconds(30))
    }

    @Test func runStopsWhenDoneOrOutOfTries() async {
        let schedule = RetrySchedule(tries: 3, first: .zero, cap: .zero)
        var calls = 0
        let spent = await schedule.run { () -> RetrySchedule.Step<Int> in
            calls += 1
            return .retry(calls)
        }
        #expect(spent == 3 && calls == 3)
        calls = 0
        let done = await schedule.run { () -> RetrySchedule.Step<String> in
            calls += 1
            return calls == 2 ? .done("second") : .retry("no")
        }
        #expect(done == "second" && calls == 2)
    }

    @Test func runBlockingStopsWhenDoneOrOutOfTriesAndWaitsBetween() {
        let schedule = RetrySchedule(tries: 3, first: .milliseconds(20), cap: .milliseconds(20))
        var calls = 0
        let started = ContinuousClock.now
        let spent = schedule.runBlocking { () -> RetrySchedule.Step<Int> in
            calls += 1
            return .retry(calls)
        }
        #expect(spent == 3 && calls == 3)
        #expect(started.duration(to: .now) >= .milliseconds(40), "two waits between three tries")
        calls = 0
        let done = schedule.runBlocking { () -> RetrySchedule.Step<String> in
            calls += 1
            return calls == 2 ? .done("second") : .retry("no")
        }
        #expect(done == "second" && calls == 2)
    }

    @Test func powerGrowthRaisesTheTryNumber() {
        let schedule = RetrySchedule(tries: nil, first: .seconds(1), growth: .power(4), cap: .seconds(300))
        #expect(milliseconds(schedule, after: 1...5) == [1000, 16000, 81000, 256000, 300000])
    }

    /// The limit only stops an hour's wait: a test waits for a thread as long as the suite's busiest moments
    /// hold them all.
    @Test(.timeLimit(.minutes(10))) func cancellationEndsTheWaitWithTheLastValue() async {
        let endless = RetrySchedule(tries: nil, first: .seconds(3600), cap: .seconds(3600))
        let (triedOnce, tried) = AsyncStream.makeStream(of: Void.self)
        let run = Task {
            await endless.run { () -> RetrySchedule.Step<String> in
                tried.yield()
                return .retry("the first")
            }
        }
        for await _ in triedOnce { break }
        run.cancel()
        #expect(await run.value == "the first")
    }
}
