import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench
@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// `variantd bench --serve` through the built binary on the repository's samples: it starts the daemon,
/// drives it over HTTP, and reports counts, statuses and memory that add up. No assertion on speed.
@Suite struct ServeLoadTests {
    @Test(.timeLimit(.minutes(5))) func smokeRunOnTheSamples() async throws {
        let finished = try await VariantdProcess.run(
            [
                "bench", "--serve", "--serve-requests", "20", "--serve-clients", "3", "--jobs", "2",
                "--serve-soak", "30", "--overload", "--overload-seconds", "3", "--corpus",
                TestPaths.samples.appendingPathComponent("pictures").path,
                "--json",
            ], within: .seconds(280))
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("cannot process truncated.jpg: 422"))

        let report = try WireJSON.decode(BenchReport.self, from: Data(finished.stdout.utf8))
        #expect(report.runs.isEmpty)
        let serve = try #require(report.serve)
        #expect(serve.slots == 2 && serve.requests == 20)
        #expect(serve.runs.map(\.jobs) == [1, 3])
        for run in serve.runs {
            #expect(run.tool == "variantd-serve" && run.corpus == "jpeg")
            #expect(run.statuses == ["200": 20], "clients \(run.jobs)")
            #expect(run.images == 2 && run.failed == ["truncated.jpg"])
            #expect(run.imagesPerSecond > 0 && run.megapixelsPerSecond > 0)
            let p99 = try #require(run.p99Milliseconds)
            #expect(run.p50Milliseconds > 0 && run.p95Milliseconds >= run.p50Milliseconds)
            #expect(p99 >= run.p95Milliseconds)
            #expect(run.peakResidentMB > 1 && run.peakResidentMB < 4096)
        }
        #expect(serve.memory.map(\.at) == ["start", "warm-up", "jpeg clients 1", "jpeg clients 3", "end"])
        #expect(serve.memory.allSatisfy { $0.daemonMB > 1 && $0.daemonMB < 4096 })
        #expect(serve.memory.first?.children == 0)
        #expect(serve.memory.dropFirst().allSatisfy { (1...2).contains($0.children) && $0.childrenMB > 1 })

        let soak = try #require(serve.soak)
        #expect(soak.jobs == 30 && soak.statuses == ["200": 30])
        // Every sample picture but the two unreadable ones: truncated.jpg and an overlay cropped after it is
        // turned.
        #expect(soak.files == 19)
        #expect(soak.samples.map(\.jobs) == [0, 30])
        let childrenGrowth = try #require(soak.childrenGrowthMB)
        #expect(soak.childrenBoundMB == 100)
        #expect(soak.boundMB == 50 && soak.withinBound == (soak.growthMB <= 50 && childrenGrowth <= 100))

        let overload = try #require(serve.overload)
        let busiest = try #require(serve.runs.last)
        #expect(overload.sustainablePerSecond == busiest.imagesPerSecond)
        #expect(overload.offeredPerSecond == 5 * busiest.imagesPerSecond && overload.seconds == 3)
        #expect(Set(overload.statuses.keys).isSubset(of: ["200", "503"]), "\(overload.statuses)")
        #expect(
            overload.statuses.values.reduce(0, +)
                == LoadClient.offeredCount(perSecond: overload.offeredPerSecond, for: .seconds(3)))
        #expect(overload.busyWithoutRetryAfter == 0)
        #expect(overload.before.at == "before overload" && overload.after.at == "after overload")
        #expect(serve.exitStatus == 0)

        let table = BenchTable.render(report, reference: nil)
        #expect(table.contains("| jpeg   | 3       | 2      |"))
        #expect(table.contains("Daemon exit status after SIGTERM: 0"))
        #expect(table.contains("Overload: ") && table.contains("503 without Retry-After: 0"))
    }

    @Test func theServeSectionHasTheDocumentedKeys() throws {
        let sample = ServeLoadReport.MemorySample(at: "start", daemonMB: 40, childrenMB: 0, children: 0)
        let run = BenchStatistics.serveRun(
            [
                .init(file: "a.jpg", status: 200, seconds: 0.1, megapixels: 12, message: ""),
                .init(file: "a.jpg", status: 503, seconds: 0.001, megapixels: 0, message: "busy"),
                .init(file: "a.jpg", status: nil, seconds: 1, megapixels: 0, message: "refused"),
            ], seconds: 0.5, corpus: "jpeg", clients: 4, images: 1, peakResidentMB: 200, failed: [])
        #expect(run.statuses == ["200": 1, "503": 1, "error": 1])
        #expect(run.imagesPerSecond == 2 && run.megapixelsPerSecond == 24)
        #expect(run.p50Milliseconds == 100 && run.p99Milliseconds == 100)
        let report = BenchReport(
            runs: [],
            serve: ServeLoadReport(
                slots: 2, requests: 3, runs: [run], memory: [sample],
                soak: .init(
                    jobs: 1000, files: 7, imagesPerSecond: 40, statuses: ["200": 1000], samples: [sample],
                    growthMB: 0, boundMB: 50, withinBound: true),
                exitStatus: 0))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(WireJSON.encode(report))) as? [String: Any])
        let serve = try #require(object["serve"] as? [String: Any])
        #expect(Set(serve.keys) == ["slots", "requests", "runs", "memory", "soak", "exit_status"])
        let row = try #require((serve["runs"] as? [[String: Any]])?.first)
        #expect(row["p99_ms"] as? Double == 100)
        #expect(row["statuses"] as? [String: Int] == ["200": 1, "503": 1, "error": 1])
        let memory = try #require((serve["memory"] as? [[String: Any]])?.first)
        #expect(Set(memory.keys) == ["at", "daemon_mb", "children_mb", "children"])
        let soak = try #require(serve["soak"] as? [String: Any])
        #expect(
            Set(soak.keys) == [
                "jobs", "files", "images_per_s", "statuses", "samples", "growth_mb", "bound_mb",
                "within_bound",
            ])
        #expect(try WireJSON.decode(BenchReport.self, from: WireJSON.encode(report)).serve == report.serve)
    }

    @Test func daemonMemoryFindsTheChildrenOfAProcess() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        defer {
            // SIGKILL: the test runner's blocked signals are inherited, SIGTERM may be among them.
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        #expect(DaemonMemory.descendants(of: getpid()).contains(child.processIdentifier))
        let sample = DaemonMemory.sample(getpid(), at: "now")
        #expect(sample.daemonMB > 1 && sample.children >= 1 && sample.childrenMB > 0)
    }
}
