import Foundation
import FoundationNetworking
import VariantdCore
import Variants

/// `variantd bench --serve --render`: on-demand renditions through the daemon — the latency of a miss per
/// output format, then cache hits driven by `wrk` at 1, 16 and 64 connections, the daemon and Debian's
/// nginx (one worker, the same rendition file from the same disk) each pinned to one core in the same run,
/// wrk on another.
struct RenderLoad: Sendable {
    /// The picture every transform is made from.
    var source: String
    var slots: Int
    /// Seconds wrk drives each row of hits.
    var seconds: Int

    static let bucket = "bench-render"
    static let hitQuery = "width=600&format=webp"
    static let formats = ["jpeg", "webp", "avif", "png"]
    static let missesPerFormat = 5
    static let connections = [1, 16, 64]

    /// One row of hits: both servers at one connection count.
    struct HitRow: Sendable {
        var connections: Int
        var variantd: WrkRun.Result
        var nginx: WrkRun.Result?
    }

    /// The Markdown tables and a line of conditions.
    func run() async throws -> String {
        let cores = CorePinning.serverAndClient
        let daemon = try BenchDaemon(
            slots: slots, buckets: [Self.bucket: #"{"name": "\#(Self.bucket)", "public": true}"#],
            core: cores?.server)
        let stored = try daemon.store([source], in: Self.bucket)[0]
        let target = "/v1/render/" + stored
        let misses = try await Self.misses(of: daemon.base.absoluteString + target)

        let hitURL = daemon.base.absoluteString + target + "?" + Self.hitQuery
        guard await Self.get(hitURL).status == 200 else {
            throw BenchDaemon.Failure(description: "\(hitURL) did not answer 200")
        }
        let store = try RenditionFolder(root: daemon.root.path)
        let spec = try Transform(query: [("width", "600"), ("format", "webp")], accept: nil).spec
        guard let checksum = SourceChecksum.of(daemon.root.path + "/" + stored),
            let rendition = store.listing(ofSource: checksum)[RenditionKey.specKey(of: spec)]
        else { throw BenchDaemon.Failure(description: "the hit's rendition is not in the store") }
        let size = store.existing(rendition)?.count ?? 0

        guard WrkRun.isInstalled else {
            throw BenchDaemon.Failure(description: "wrk is not installed (bash scripts/bench-setup.sh)")
        }
        let nginx = try StaticFileServer(root: daemon.root.path, workers: 1, core: cores?.server)
        if nginx == nil {
            Console.error("bench: nginx is not installed (bash scripts/bench-setup.sh): no yardstick")
        }
        let nginxURL = nginx.map { $0.base.absoluteString + "/" + rendition }
        var rows: [HitRow] = []
        for connections in Self.connections {
            func drive(_ server: String, _ url: String) throws -> WrkRun.Result {
                Console.error("bench: render hits, \(server), \(connections) connections")
                _ = try WrkRun(url: url, connections: connections, seconds: 1, core: cores?.client).run()
                return try WrkRun(url: url, connections: connections, seconds: seconds, core: cores?.client)
                    .run()
            }
            let variantd = try drive("variantd", hitURL)
            rows.append(
                HitRow(
                    connections: connections, variantd: variantd,
                    nginx: try nginxURL.map { try drive("nginx", $0) }))
        }
        _ = daemon.stop()
        return Self.table(misses: misses, hits: rows, renditionBytes: size, pinned: cores != nil)
    }

    /// `missesPerFormat` new transforms per format, one at a time.
    private static func misses(of url: String) async throws -> [(format: String, seconds: [Double])] {
        var misses: [(format: String, seconds: [Double])] = []
        for format in formats {
            Console.error("bench: render misses, \(format)")
            var seconds: [Double] = []
            for index in 0..<missesPerFormat {
                let miss = url + "?width=\(400 + index)&format=\(format)"
                let (status, elapsed) = await get(miss)
                guard status == 200 else {
                    throw BenchDaemon.Failure(description: "\(miss): status \(status)")
                }
                seconds.append(elapsed)
            }
            misses.append((format, seconds))
        }
        return misses
    }

    private static func get(_ url: String) async -> (status: Int, seconds: Double) {
        let start = ContinuousClock.now
        let answer = try? await URLSession.shared.data(from: URL(string: url)!)
        let status = answer.flatMap { ($0.1 as? HTTPURLResponse)?.statusCode } ?? 0
        return (status, (ContinuousClock.now - start) / .seconds(1))
    }

    private static func table(
        misses: [(format: String, seconds: [Double])], hits: [HitRow], renditionBytes: Int, pinned: Bool
    ) -> String {
        func ms(_ seconds: Double) -> String { BenchTable.fixed(seconds * 1000, 2) }
        var lines = [
            "Hits: \(hitQuery) (\(renditionBytes) bytes) driven by wrk; "
                + (pinned ? "each server pinned to core 1, wrk to core 0." : "one core: nothing pinned."), "",
        ]
        lines += BenchTable.table(
            [["format", "misses", "p50 ms", "max ms"]]
                + misses.map {
                    [
                        $0.format, "\($0.seconds.count)", ms(BenchStatistics.percentile($0.seconds, 0.5)),
                        ms($0.seconds.max() ?? 0),
                    ]
                })
        lines.append("")
        var rows = [
            [
                "connections", "variantd req/s", "nginx req/s", "ratio", "variantd p50 / p99 ms",
                "nginx p50 / p99 ms", "failed",
            ]
        ]
        for row in hits {
            let nginx = row.nginx
            rows.append([
                "\(row.connections)", BenchTable.fixed(row.variantd.requestsPerSecond, 0),
                nginx.map { BenchTable.fixed($0.requestsPerSecond, 0) } ?? "",
                nginx.map { BenchTable.fixed(row.variantd.requestsPerSecond / $0.requestsPerSecond, 2) + "×" }
                    ?? "",
                ms(row.variantd.p50) + " / " + ms(row.variantd.p99),
                nginx.map { ms($0.p50) + " / " + ms($0.p99) } ?? "",
                "\(row.variantd.failures + (nginx?.failures ?? 0))",
            ])
        }
        lines += BenchTable.table(rows)
        return lines.joined(separator: "\n")
    }
}
