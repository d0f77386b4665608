import Foundation
import FoundationNetworking
import VariantdCore
import Variants

/// `variantd bench --serve --render`: on-demand renditions through the daemon — the latency of a miss per
/// output format, and cache hits per second with p50/p99 at 1 and N clients beside Debian's nginx serving the
/// same rendition file from the same disk to the same client in the same run.
struct RenderLoad: Sendable {
    /// The picture every transform is made from.
    var source: String
    var slots: Int
    var clients: Int
    /// Timed hit requests per row.
    var requests: Int

    static let bucket = "bench-render"
    static let hitQuery = "width=600&format=webp"
    static let formats = ["jpeg", "webp", "avif", "png"]
    static let missesPerFormat = 5

    /// One row of hits.
    struct HitRow: Sendable {
        var server: String
        var clients: Int
        var requestsPerSecond: Double
        var p50: Double
        var p99: Double
        var failures: Int
    }

    /// The Markdown tables and a line of conditions.
    func run() async throws -> String {
        let daemon = try BenchDaemon(
            slots: slots, buckets: [Self.bucket: #"{"name": "\#(Self.bucket)", "public": true}"#])
        let stored = try daemon.store([source], in: Self.bucket)[0]
        let target = "/v1/render/" + stored
        let session = Self.session(clients: clients)
        defer { session.finishTasksAndInvalidate() }

        var misses: [(format: String, seconds: [Double])] = []
        for format in Self.formats {
            Console.error("bench: render misses, \(format)")
            var seconds: [Double] = []
            for index in 0..<Self.missesPerFormat {
                let url = URL(
                    string: daemon.base.absoluteString + target + "?width=\(400 + index)&format=\(format)")!
                let (status, elapsed) = await Self.get(url, session: session)
                guard status == 200 else {
                    throw BenchDaemon.Failure(description: "\(url): status \(status)")
                }
                seconds.append(elapsed)
            }
            misses.append((format, seconds))
        }

        let hitURL = URL(string: daemon.base.absoluteString + target + "?" + Self.hitQuery)!
        guard await Self.get(hitURL, session: session).status == 200 else {
            throw BenchDaemon.Failure(description: "\(hitURL) did not answer 200")
        }
        let store = try RenditionFolder(root: daemon.root.path)
        let spec = try Transform(query: [("width", "600"), ("format", "webp")], accept: nil).spec
        guard let checksum = SourceChecksum.of(daemon.root.path + "/" + stored),
            let rendition = store.listing(ofSource: checksum)[RenditionKey.specKey(of: spec)]
        else { throw BenchDaemon.Failure(description: "the hit's rendition is not in the store") }
        let size = store.existing(rendition)?.count ?? 0

        let nginx = try StaticFileServer(root: daemon.root.path, workers: slots)
        if nginx == nil {
            Console.error("bench: nginx is not installed (bash scripts/bench-setup.sh): no yardstick")
        }
        var rows: [HitRow] = []
        for concurrency in Set([1, clients]).sorted() {
            var servers = [("variantd", hitURL)]
            if let nginx {
                servers.append(("nginx", URL(string: nginx.base.absoluteString + "/" + rendition)!))
            }
            for (server, url) in servers {
                Console.error("bench: render hits, \(server), clients \(concurrency)")
                _ = await Self.hits(url, count: min(200, requests), clients: concurrency, session: session)
                let (latencies, seconds, failures) = await Self.hits(
                    url, count: requests, clients: concurrency, session: session)
                rows.append(
                    HitRow(
                        server: server, clients: concurrency,
                        requestsPerSecond: Double(latencies.count) / seconds,
                        p50: BenchStatistics.percentile(latencies, 0.5),
                        p99: BenchStatistics.percentile(latencies, 0.99), failures: failures))
            }
        }
        _ = daemon.stop()
        return Self.table(
            misses: misses, hits: rows, renditionBytes: size, source: source, requests: requests)
    }

    private static func session(clients: Int) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = clients
        configuration.timeoutIntervalForRequest = 600
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    private static func get(_ url: URL, session: URLSession) async -> (status: Int, seconds: Double) {
        let start = ContinuousClock.now
        let status =
            (try? await session.data(from: url)).flatMap { ($0.1 as? HTTPURLResponse)?.statusCode } ?? 0
        return (status, (ContinuousClock.now - start) / .seconds(1))
    }

    /// `count` GETs of one URL from `clients` clients, each waiting for its answer before the next.
    private static func hits(_ url: URL, count: Int, clients: Int, session: URLSession) async
        -> (latencies: [Double], seconds: Double, failures: Int)
    {
        let start = ContinuousClock.now
        let results = await withTaskGroup(of: [(Int, Double)].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var results: [(Int, Double)] = []
                    for _ in stride(from: client, to: count, by: clients) {
                        results.append(await get(url, session: session))
                    }
                    return results
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let ok = results.filter { $0.0 == 200 }.map(\.1)
        return (ok, (ContinuousClock.now - start) / .seconds(1), results.count - ok.count)
    }

    private static func table(
        misses: [(format: String, seconds: [Double])], hits: [HitRow], renditionBytes: Int, source: String,
        requests: Int
    ) -> String {
        func ms(_ seconds: Double) -> String { BenchTable.fixed(seconds * 1000, 2) }
        var lines = [
            "Source: \((source as NSString).lastPathComponent); hits: \(hitQuery) (\(renditionBytes) bytes), "
                + "\(requests) timed requests per row.", "",
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
        var rows = [["server", "clients", "requests/s", "p50 ms", "p99 ms", "failed", "vs nginx"]]
        for row in hits {
            let nginx = hits.first { $0.server == "nginx" && $0.clients == row.clients }
            let ratio = nginx.map {
                "\(BenchTable.fixed(row.requestsPerSecond / $0.requestsPerSecond, 2))× rps, "
                    + "\(BenchTable.fixed(row.p99 / $0.p99, 2))× p99"
            }
            rows.append([
                row.server, "\(row.clients)", BenchTable.fixed(row.requestsPerSecond, 0), ms(row.p50),
                ms(row.p99),
                "\(row.failures)", row.server == "nginx" ? "" : ratio ?? "",
            ])
        }
        lines += BenchTable.table(rows)
        return lines.joined(separator: "\n")
    }
}
