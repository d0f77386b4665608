import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// `variantd bench --serve --render --store s3://…` against a real SeaweedFS: what a miss and a hit cost
/// the store, as the daemon's metrics count it. No assertion on speed.
@Suite(
    .serialized, .seaweedServer, .seaweedInstalled,
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk"),
        "wrk is absent; run scripts/bench-setup.sh"))
struct RenderBenchOverS3Tests {
    @Test(.timeLimit(.minutes(5))) func countsStoreRequestsPerMissAndPerHit() async throws {
        let server = try #require(SeaweedServer.current)
        let bucket = try server.freshBucket()
        let finished = try await VariantdProcess.run(
            [
                "bench", "--serve", "--render", "--render-seconds", "1", "--jobs", "1", "--corpus",
                TestPaths.samples.appendingPathComponent("pictures").path, "--store", "s3://\(bucket)/bench",
            ], environment: server.environment(), within: .seconds(280))
        #expect(finished.status == 0, "\(finished.stderr.suffix(2000))")
        let lines = finished.stdout.split(separator: "\n")
        func row(_ phase: String) throws -> [Double] {
            let line = try #require(lines.first { $0.hasPrefix("| \(phase) ") }, "\(finished.stdout)")
            return line.split(separator: "|").dropFirst().compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
        }
        // Misses or hits answered, other answers, then HEAD, GET, PUT, LIST and bytes received, each per miss
        // or hit answered.
        let miss = try row("miss")
        let hit = try row("hit")
        try #require(miss.count == 7 && hit.count == 7, "\(finished.stdout)")
        #expect(miss[0] == 20)
        #expect(Array(miss[2...5]) == [1, 1, 1, 1], "HEAD, GET, PUT, LIST per miss: \(finished.stdout)")
        #expect(hit[0] > 0)
        #expect(Array(hit[2...3]) == [1, 1], "HEAD, GET per hit: \(finished.stdout)")
        #expect(hit[4] == 0 && hit[5] == 0, "PUT, LIST per hit: \(finished.stdout)")
        // "Hits: width=600&format=webp (N bytes) …"
        let header = try #require(lines.first { $0.hasPrefix("Hits: ") })
        let size = try #require(Double(header.split(separator: "(")[1].prefix { $0.isNumber }))
        #expect(size > 0 && abs(hit[6] - size) <= 1, "bytes per hit: \(finished.stdout)")
    }
}
