import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct WriteHealthTests {
    /// A full place is blocked until a probe finds room again, with no write needed; a cache's failures are
    /// counted and leave readiness alone; a write that succeeds unblocks at once.
    /// A probe file left behind (a removal that failed during the fault, or another process of the same
    /// number) does not fail every probe after it: the place is unblocked once it takes writes.
    @Test func aLeftoverProbeFileDoesNotKeepAPlaceBlocked() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let leftover = directory.appendingPathComponent(".write-probe-\(getpid())").path
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data([0x0A])))
        let health = WriteHealth()
        health.watch(.renditionStore, directory: directory.path)
        let start = ContinuousClock.now
        health.record(.renditionStore, failure: EIO)
        let probed = start + WriteHealth.probeInterval + .seconds(1)
        #expect(health.blocked(now: probed).map(\.place) == [.renditionStore], "blocked until the probe ends")
        health.waitForProbes()
        #expect(health.blocked(now: probed).isEmpty, "the probe wrote past the leftover file")
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test(.enabled(if: SizedTmpfs.isAvailable, "mounting a tmpfs needs root"))
    func aFullPlaceIsBlockedUntilAProbeFindsRoom() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try SizedTmpfs(at: directory.appendingPathComponent("store").path, bytes: 4 << 20)
        defer { disk.unmount() }
        let health = WriteHealth()
        health.watch(.renditionStore, directory: disk.path)
        disk.fill()
        let start = ContinuousClock.now
        health.record(.renditionStore, failure: ENOSPC)
        health.record(.onDemandCache, failure: ENOSPC)
        health.record(.renditionStore, failure: EIO)
        #expect(health.failures[.renditionStore] == ["ENOSPC": 1, "EIO": 1])
        #expect(health.failures[.onDemandCache] == ["ENOSPC": 1])
        let blocked = health.blocked(now: start)
        #expect(blocked.map(\.place) == [.renditionStore] && blocked.first?.blockage == .storeFailing)

        let probed = start + WriteHealth.probeInterval + .seconds(1)
        _ = health.blocked(now: probed)
        health.waitForProbes()
        #expect(health.blocked(now: probed).map(\.place) == [.renditionStore], "still full: the probe failed")
        disk.empty()
        #expect(health.blocked(now: probed + .seconds(1)).isEmpty == false, "not probed again yet")
        let again = probed + WriteHealth.probeInterval
        _ = health.blocked(now: again)
        health.waitForProbes()
        #expect(health.blocked(now: again).isEmpty, "the probe, in the background, found room")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty, "the probe left nothing")

        health.record(.queue, failure: EROFS)
        #expect(health.blocked(now: start).first?.blockage == .storeReadOnly)
        health.record(.queue, failure: nil)
        #expect(health.blocked(now: start).isEmpty)
    }

    @Test func errnoNamesLabelTheFailures() {
        let health = WriteHealth()
        health.record(.spool, failure: EDQUOT)
        health.record(.spool, failure: 0)
        #expect(health.failures[.spool] == ["EDQUOT": 1, "errno_0": 1])
        var text = PrometheusText()
        text.writeHealth(health)
        #expect(text.text.contains("variantd_write_failures_total{place=\"spool\",errno=\"EDQUOT\"} 1"))
        #expect(text.text.contains("variantd_write_blocked{place=\"spool\"} 1"))
        #expect(text.text.contains("variantd_write_blocked{place=\"rendition_store\"} 0"))
    }
}
