import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// An identity vouches for a file's bytes once a write since would have moved its times: a few of the
/// kernel's clock ticks for nanosecond times, the next whole second for times in seconds. The clock is handed
/// in, so nothing waits.
@Suite struct FileIdentityTests {
    private func identity(changedAt time: timespec) throws -> FileIdentity {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.jpg")
        try Data("bytes".utf8).write(to: file)
        var identity = try #require(FileIdentity(path: file.path))
        identity.modified = time
        identity.changed = time
        return identity
    }

    @Test func nanosecondTimesSettleAfterAFewTicks() throws {
        let now = timespec(tv_sec: 1_800_000_000, tv_nsec: 20_000_000)
        let written = try identity(changedAt: timespec(tv_sec: 1_799_999_999, tv_nsec: 990_000_000))
        #expect(!written.isSettled(at: now), "30 ms after the write")
        #expect(written.isSettled(at: timespec(tv_sec: 1_800_000_000, tv_nsec: 50_000_000)), "60 ms after")

        var changedLater = written
        changedLater.changed = timespec(tv_sec: 1_800_000_000, tv_nsec: 10_000_000)
        #expect(!changedLater.isSettled(at: timespec(tv_sec: 1_800_000_000, tv_nsec: 50_000_000)))
    }

    @Test func wholeSecondTimesSettleOnceTheNextSecondHasPassed() throws {
        let written = try identity(changedAt: timespec(tv_sec: 1_800_000_000, tv_nsec: 0))
        #expect(!written.isSettled(at: timespec(tv_sec: 1_800_000_001, tv_nsec: 900_000_000)))
        #expect(written.isSettled(at: timespec(tv_sec: 1_800_000_002, tv_nsec: 0)))
    }

    @Test func aFileJustWrittenSettlesByTheClock() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.jpg")
        try Data("bytes".utf8).write(to: file)
        // Whole-second times (where the file system keeps no more) take up to two seconds.
        var settled = false
        for _ in 0..<50 where !settled {
            settled = FileIdentity(path: file.path)?.isSettled == true
            if !settled { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(settled)
    }
}
