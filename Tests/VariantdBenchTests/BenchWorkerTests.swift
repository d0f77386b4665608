import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench
@testable import VariantdCore

/// `variantd bench-worker` through the built binary.
@Suite struct BenchWorkerTests {
    /// Two workers side by side drawing from one ticket file make `--iterations` passes between them, not
    /// each, begin them once both have warmed up, and say when they ran, so the bench can time them as one
    /// run.
    @Test(.timeLimit(.minutes(5))) func workersSideBySideShareTheirPasses() async throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pictures = TestPaths.samples.appendingPathComponent("pictures")
        let arguments = [
            "bench-worker", "--mode", "decode", "--iterations", "3", "--share",
            folder.appendingPathComponent("tickets").path, "--parts", "2",
            pictures.appendingPathComponent("gradient.jpg").path,
            pictures.appendingPathComponent("orientation-6.jpg").path,
        ]
        async let first = VariantdProcess.run(arguments, within: .seconds(240))
        async let second = VariantdProcess.run(arguments, within: .seconds(240))
        var parts: [VariantdBench.Measurement] = []
        for finished in try await [first, second] {
            #expect(finished.status == 0, "\(finished.stderr.suffix(2000))")
            parts.append(
                try WireJSON.decode(VariantdBench.Measurement.self, from: Data(finished.stdout.utf8)))
        }
        let runs = parts.flatMap { part in part.images.flatMap(\.seconds) }
        #expect(runs.count == 3 * 2)
        for part in parts {
            let from = try #require(part.timedFrom)
            let to = try #require(part.timedTo)
            #expect(to >= from && to - from <= part.wallSeconds + 0.01)
        }
        let together = VariantdBench.Measurement.concurrent(parts, passes: 3)
        #expect(together.images.map { $0.seconds.count } == [3, 3])
        // One ticket each to say it had warmed up, the six runs, and one each that found none left.
        let tickets = try TicketFile(path: folder.appendingPathComponent("tickets").path)
        #expect(try tickets.drawn() == 2 + 6 + 2)
    }
}
