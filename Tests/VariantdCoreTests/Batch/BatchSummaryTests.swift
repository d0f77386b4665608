import Foundation
import Testing

@testable import VariantdCore

@Suite struct BatchSummaryTests {
    private var tally: BatchTally {
        var tally = BatchTally()
        for _ in 0..<120 { tally.record(.ok, bytes: 100_000) }
        for _ in 0..<3 { tally.record(.unreadable, bytes: 10_000) }
        tally.record(.unsupported, bytes: 50_000)
        tally.record(.error, bytes: 1, retryable: true)
        for _ in 0..<7 { tally.recordSkipped(.ok) }
        return tally
    }

    @Test func tableListsEveryOutcomeAndTheThroughput() {
        let summary = BatchSummary(
            tally, elapsed: .seconds(10), interrupted: false, manifest: "out/manifest.jsonl")
        #expect(
            summary.table == """
                Finished after 10.0 s: 125 files processed, 7 skipped
                  ok           120
                  unreadable     3
                  unsupported    1
                  skipped        7  (already in the manifest)
                  errors         1  (1 retried by the next run)
                  throughput   1.2 MB/s, 12.5 images/s
                Manifest: out/manifest.jsonl
                """)
    }

    @Test func interruptedTableSaysHowToResume() {
        let summary = BatchSummary(tally, elapsed: .seconds(10), interrupted: true, manifest: "m")
        #expect(summary.table.hasPrefix("Interrupted after 10.0 s"))
        #expect(summary.table.hasSuffix("Run the same command again to resume."))
    }

    @Test func jsonIsOneObjectWithEveryCount() throws {
        let summary = BatchSummary(tally, elapsed: .milliseconds(2500), interrupted: false, manifest: "m")
        let line = try WireJSON.line(summary)
        #expect(!line.contains("\n"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["ok"] as? Int == 120)
        #expect(object["unreadable"] as? Int == 3)
        #expect(object["unsupported"] as? Int == 1)
        #expect(object["skipped"] as? Int == 7)
        #expect(object["errors"] as? Int == 1)
        #expect(object["processed"] as? Int == 125)
        #expect(object["bytes"] as? Int == 12_080_001)
        #expect(object["seconds"] as? Double == 2.5)
        #expect(object["imagesPerSecond"] as? Double == 50)
        #expect(object["interrupted"] as? Bool == false)
    }
}
