import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench
@testable import VariantdCore

/// One real run of `variantd bench` through the built binary on the repository's samples: the JSON parses
/// and its figures are sane. No assertion on speed.
@Suite struct BenchCommandTests {
    @Test(.timeLimit(.minutes(10))) func smokeRunOnTheSamples() async throws {
        let finished = try await VariantdProcess.run(
            [
                "bench", "--corpus", TestPaths.samples.appendingPathComponent("pictures").path, "--jobs", "1",
                "--iterations", "1", "--json",
            ], within: .seconds(540))
        #expect(finished.status == 0, "\(finished.stderr.suffix(2000))")
        let data = Data(finished.stdout.utf8)

        let report = try WireJSON.decode(BenchReport.self, from: data)
        let corpora = Set(report.runs.map(\.corpus))
        #expect(corpora == ["jpeg", "heic", "png", "webp", "avif", "gif"])
        #expect(Set(report.runs.map(\.tool)) == ["variantd", "variantd-decode", "variantd-write"])
        #expect(report.runs.allSatisfy { $0.jobs == 1 })
        for run in report.runs {
            #expect(run.images >= 1, "\(run.tool) \(run.corpus)")
            #expect(run.imagesPerSecond > 0 && run.megapixelsPerSecond > 0, "\(run.tool) \(run.corpus)")
            #expect(run.p50Milliseconds > 0 && run.p95Milliseconds >= run.p50Milliseconds)
            #expect(run.peakResidentMB > 1 && run.peakResidentMB < 4096)
        }
        let jpeg = try #require(report.run("variantd", "jpeg"))
        #expect(jpeg.images == 2)
        #expect(jpeg.failed == ["truncated.jpg"])
        #expect(
            Set(jpeg.stages.keys).isSuperset(of: ["read", "hash", "decode", "thumbhash", "encode.large"]))
        #expect(report.run("variantd-decode", "jpeg")?.stages["encode.large"] == nil)
        #expect(report.run("variantd-write", "jpeg")?.stages["write"] ?? 0 > 0)
        let avif = try #require(report.avif?.encodings.first)
        #expect(avif.tool == "variantd" && avif.bytes > 0 && avif.encodeSeconds > 0)
        #expect(report.thumbhash == nil)
    }

    @Test func anchorPicksSomeAnchorsAndRefusesUnknownNames() throws {
        var some = Arguments(["--anchor", "pillow,pyvips-once-binary"])
        let command = try BenchCommand(parsing: &some)
        #expect(command.anchors)
        #expect(command.anchorTools == ["pillow", "pyvips-once-binary"])

        var unknown = Arguments(["--anchor", "pillow,pyvips-8.18"])
        #expect(throws: UsageError.self) { try BenchCommand(parsing: &unknown) }

        var none = Arguments([])
        let all = try BenchCommand(parsing: &none)
        #expect(!all.anchors && all.anchorTools == nil)
    }
}
