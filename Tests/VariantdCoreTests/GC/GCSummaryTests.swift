import Testing

@testable import VariantdCore

@Suite struct GCSummaryTests {
    @Test func saysWhatWentAndWhatStayed() {
        let summary = GCSummary(
            removed: 3, keptLive: 40, keptYoung: 2, bytesFreed: 1_234_567, sourcesHashed: 5,
            sourcesReused: 120)
        #expect(
            summary.text(grace: .seconds(3600))
                == "gc: removed 3 renditions (1.2 MB freed); kept 40 of live sources, 2 younger than 1h; "
                + "5 sources hashed, 120 reused")
        var dry = summary
        dry.dryRun = true
        #expect(dry.text(grace: .seconds(90)).hasPrefix("gc: would remove 3 renditions (1.2 MB to free)"))
        #expect(dry.text(grace: .seconds(90)).contains("younger than 90s"))
        #expect(GCSummary.bytes(512) == "512 B")
        #expect(GCSummary.age(.zero) == "0s")
        #expect(GCSummary.age(.seconds(7 * 86_400)) == "7d")
    }
}
