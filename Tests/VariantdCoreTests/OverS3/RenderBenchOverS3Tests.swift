import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// `variantd bench --serve --render --store s3://…` against a real SeaweedFS: what a miss and a hit cost
/// the store, as the daemon's metrics count it, and the rows of its hits beside a folder daemon's. No
/// assertion on speed.
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
        // A HEAD of the source only when its window has passed; a GET of it for each render.
        #expect(miss[2] > 0 && miss[2] <= 1, "HEAD per miss: \(finished.stdout)")
        #expect(Array(miss[3...5]) == [1, 1, 1], "GET, PUT, LIST per miss: \(finished.stdout)")
        #expect(hit[0] > 0)
        // The source's identity trusted for its window (a HEAD each few seconds, a hundredth of a hit or
        // less), the rendition sent from the local cache.
        #expect(hit[2] < 0.01 && hit[3] == 0, "HEAD, GET per hit: \(finished.stdout)")
        #expect(hit[4] == 0 && hit[5] == 0 && hit[6] == 0, "PUT, LIST, bytes per hit: \(finished.stdout)")
        let beside = try #require(
            lines.firstIndex { $0.hasPrefix("S3 hits beside folder hits") }, "\(finished.stdout)")
        for connections in [1, 16] {
            let line = try #require(
                lines[beside...].first { $0.hasPrefix("| \(connections) ") }, "\(finished.stdout)")
            let failed = line.split(separator: "|").last?.trimmingCharacters(in: .whitespaces)
            #expect(line.contains("×") && failed == "0", "no failed request: \(line)")
        }
    }
}
