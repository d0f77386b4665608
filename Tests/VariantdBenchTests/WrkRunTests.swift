import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench

/// Debian's `wrk` as the render benchmark runs it: its report parsed, and a short real run through
/// `variantd bench --serve --render`. No assertion on speed.
@Suite struct WrkRunTests {
    private static let report = """
        Running 5s test @ http://127.0.0.1:8089/v1/render/a.jpg?width=600&format=webp
          1 threads and 16 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency     1.94ms  612.33us  12.01ms   81.20%
            Req/Sec     8.29k   401.22     8.91k    72.00%
          Latency Distribution
             50%    1.85ms
             75%    2.10ms
             90%    2.51ms
             99%    3.98ms
          41255 requests in 5.00s, 1.31GB read
          Socket errors: connect 0, read 2, write 0, timeout 1
          Non-2xx or 3xx responses: 4
        Requests/sec:   8250.12
        Transfer/sec:    268.51MB
        """

    @Test func readsRatePercentilesAndFailures() throws {
        let result = try WrkRun.parse(Self.report)
        #expect(result.requests == 41255 && result.requestsPerSecond == 8250.12)
        #expect(abs(result.p50 - 0.00185) < 1e-9 && abs(result.p99 - 0.00398) < 1e-9)
        #expect(result.failures == 7)
        let microseconds = Self.report.replacingOccurrences(of: "1.85ms", with: "812.00us")
        #expect(abs(try WrkRun.parse(microseconds).p50 - 0.000812) < 1e-12)
        #expect(throws: WrkRun.Failure.self) { try WrkRun.parse("unable to connect to 127.0.0.1:1") }
    }

    @Test func roundsAreTakenAsTheirMedians() {
        let rounds = [
            WrkRun.Result(requests: 100, requestsPerSecond: 20, p50: 0.002, p99: 0.009, failures: 1),
            WrkRun.Result(requests: 300, requestsPerSecond: 60, p50: 0.001, p99: 0.003, failures: 0),
            WrkRun.Result(requests: 200, requestsPerSecond: 40, p50: 0.003, p99: 0.004, failures: 2),
        ]
        let median = WrkRun.Result.median(of: rounds)
        #expect(
            median == WrkRun.Result(requests: 600, requestsPerSecond: 40, p50: 0.002, p99: 0.004, failures: 3)
        )
        #expect(WrkRun.Result.median(of: [rounds[0]]) == rounds[0])
    }

    @Test(.timeLimit(.minutes(5))) func smokeRunOfTheRenderHits() async throws {
        let finished = try await VariantdProcess.run(
            [
                "bench", "--serve", "--render", "--render-seconds", "1", "--jobs", "1", "--corpus",
                TestPaths.samples.appendingPathComponent("pictures").path,
            ], within: .seconds(280))
        #expect(finished.status == 0, "\(finished.stderr)")
        // Beside the pinned rows, the row of both servers unpinned at their defaults where there are cores to
        // share.
        let unpinned = CorePinning.serverAndClient == nil ? [] : ["64, both cores"]
        for connections in RenderLoad.connections.map({ "\($0)" }) + unpinned {
            let row = finished.stdout.split(separator: "\n").first { $0.hasPrefix("| \(connections) ") }
            let rate = row.flatMap {
                Double($0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces))
            }
            #expect((rate ?? 0) > 0, "\(connections) connections: \(finished.stdout)")
        }
    }
}
