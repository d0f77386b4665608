import Testing

@testable import VariantdCore

@Suite struct ProgressLineTests {
    private var tally: BatchTally {
        var tally = BatchTally()
        for _ in 0..<8 { tally.record(.ok, bytes: 1_000_000) }
        tally.record(.unreadable, bytes: 500_000)
        tally.record(.unsupported, bytes: 500_000)
        tally.recordSkipped(.ok)
        tally.recordSkipped(.unreadable)
        tally.total = 24
        return tally
    }

    @Test func barShowsDoneOverTotalRatesEtaAndFailures() {
        let line = ProgressLine(tally: tally, elapsed: .seconds(4)).bar()
        #expect(line == "[##########----------]  12/24  2.3 MB/s  2.5 img/s  ETA 0:05  1 failed")
    }

    @Test func barBeforeTheCountIsKnownHasNoTotalAndNoEta() {
        var tally = tally
        tally.total = nil
        let line = ProgressLine(tally: tally, elapsed: .seconds(4)).bar()
        #expect(line == "[--------------------]  12/?  2.3 MB/s  2.5 img/s  ETA --:--  1 failed")
    }

    @Test func plainLineForLogs() {
        let line = ProgressLine(tally: tally, elapsed: .seconds(4)).plain
        #expect(line == "batch: 12/24 files (50%), 2.3 MB/s, 2.5 images/s, ETA 0:05, 1 failed")
    }

    @Test func nothingDoneYetHasZeroRates() {
        let line = ProgressLine(tally: BatchTally(), elapsed: .zero).plain
        #expect(line == "batch: 0/? files, 0.0 MB/s, 0.0 images/s, ETA --:--, 0 failed")
    }

    /// A resume skips what the manifest records almost at once: the pace is that of the files processed in
    /// this run, and the files left are those not recorded, so the ETA holds from the first seconds.
    @Test func aResumesEtaCountsOnlyTheFilesProcessedAndTheFilesNotRecorded() {
        var tally = BatchTally()
        tally.total = 1000
        tally.recorded = 900
        for _ in 0..<450 { tally.recordSkipped(.ok) }
        #expect(ProgressLine(tally: tally, elapsed: .seconds(1)).eta == "--:--")
        for _ in 0..<5 { tally.record(.ok, bytes: 1) }
        // 95 files to process (1000 − 5 processed − 900 recorded) at 1 file a second.
        #expect(ProgressLine(tally: tally, elapsed: .seconds(5)).eta == "1:35")
        for _ in 0..<450 { tally.recordSkipped(.ok) }
        for _ in 0..<5 { tally.record(.ok, bytes: 1) }
        #expect(ProgressLine(tally: tally, elapsed: .seconds(10)).eta == "1:30")
    }

    @Test func clockFormatsMinutesAndHours() {
        #expect(ProgressLine.clock(0) == "0:00")
        #expect(ProgressLine.clock(75) == "1:15")
        #expect(ProgressLine.clock(3600 + 5 * 60 + 9) == "1:05:09")
        #expect(ProgressLine.clock(10 * 3600 + 59 * 60) == "10:59:00")
    }

    @Test func failuresCountUnreadableAndErrorsButNotUnsupported() {
        var tally = BatchTally()
        tally.record(.unsupported, bytes: 1)
        tally.record(.unreadable, bytes: 1)
        tally.record(.error, bytes: 1, retryable: true)
        #expect(tally.failures == 2)
        #expect(tally.retryable == 1)
        #expect(tally.processed == 3)
    }
}
