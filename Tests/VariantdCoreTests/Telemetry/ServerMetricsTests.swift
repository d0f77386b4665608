import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `/metrics` label values come from fixed sets, whatever the callers name their variants.
@Suite struct ServerMetricsTests {
    @Test func variantNamesDoNotBecomeStageLabels() throws {
        var timings = StageTimings()
        for variant in ["thumb", "large", "made-up-by-a-caller"] {
            timings.add(.render, variant: variant, .milliseconds(2))
            timings.add(.encode, variant: variant, .milliseconds(3))
        }
        timings.add(.decode, .milliseconds(10))
        let body = Array(
            #"{"id": "j", "bucket": "b", "path": "p.jpg", "source": "\#(TestPaths.samples.path.dropFirst())/pictures/gradient.jpg"}"#
                .utf8)
        let request = try JobRequest(body: body, objects: ObjectFolder.wholeFileSystem)
        let answer = PipelineAnswer(.failure(.unreadable(.corrupt, "x")), timings: timings)
        let record = JobRecord(request: request, answer: answer, seconds: 0.1)
        #expect(record.durations.keys.contains("render.made-up-by-a-caller"), "the log line keeps the split")

        let metrics = ServerMetrics()
        metrics.record(record)
        let text = metrics.render(
            .init(
                admission: Admission(slots: 1, waitingCapacity: 1).snapshot, slots: 1, waitingCapacity: 1,
                buckets: 0)
        )
        let labels = Set(
            text.split(separator: "\n").filter { $0.hasPrefix("variantd_stage_duration_seconds_count") }.map {
                String($0.split(separator: "\"")[1])
            })
        #expect(labels == ["render", "encode", "decode"])
        #expect(text.contains(#"variantd_stage_duration_seconds_count{stage="render"} 1"#))
        #expect(!text.contains("made-up"))
    }

    /// Jobs report the pool's crash count after they end, in any order: one that read the count before
    /// another job's crash may report it after, and a counter must never go back (Prometheus would take it
    /// for a restart and count every crash again).
    @Test func theCrashCounterNeverGoesBack() {
        let metrics = ServerMetrics()
        metrics.setDecoderCrashes(2)
        metrics.setDecoderCrashes(1)
        let text = metrics.render(
            .init(
                admission: Admission(slots: 1, waitingCapacity: 1).snapshot, slots: 1, waitingCapacity: 1,
                buckets: 0)
        )
        #expect(text.contains("\nvariantd_decoder_crashes_total 2\n"))
    }
}
