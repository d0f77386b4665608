import Foundation
import FoundationNetworking
import VariantdCore
import Variants

/// `variantd bench --serve --render`: on-demand renditions through the daemon — the latency of a miss per
/// output format, then cache hits driven by `wrk` at 1, 16 and 64 connections, the daemon and Debian's
/// nginx (one worker, the same rendition file from the same disk) each pinned to one core in the same run,
/// wrk on another; then, as users run them, both on every core at their defaults (nginx a worker per core)
/// beside wrk. With `store`, the picture and its renditions live in object storage, and the tables add
/// what a miss and a hit cost the store, and its hits beside a folder daemon's (`StoreHitComparison`).
struct RenderLoad: Sendable {
    /// The picture every transform is made from.
    var source: String
    var slots: Int
    /// Seconds wrk drives each round of hits.
    var seconds: Int
    /// Where the daemon keeps sources (`objects/`) and renditions (`renditions/`); nil for a folder.
    var store: S3Location? = nil

    static let bucket = "bench-render"
    static let hitQuery = "width=600&format=webp"
    static let formats = ["jpeg", "webp", "avif", "png"]
    static let missesPerFormat = 5
    static let connections = [1, 16, 64]
    /// Pinned rows alternate the two servers this many times, and give each one's median round: the host's
    /// bursts of noise, which last seconds, then fall on both servers alike, and one burst moves no figure.
    static let rounds = 3

    /// One row of hits: both servers at one connection count.
    struct HitRow: Sendable {
        var connections: Int
        var variantd: WrkRun.Result
        var nginx: WrkRun.Result?
        /// The daemon at its defaults and nginx with a worker per core, nothing pinned: as a user runs them.
        var unpinned = false
    }

    /// A picture stored for hits: the daemon's URL of its rendition, and that rendition as a file of the
    /// daemon's folder for nginx to send.
    struct Hit {
        var url: String
        var rendition: String
        var size: Int
    }

    /// The Markdown tables and a line of conditions.
    func run() async throws -> String {
        guard WrkRun.isInstalled else {
            throw BenchDaemon.Failure(description: "wrk is not installed (bash scripts/bench-setup.sh)")
        }
        let cores = CorePinning.serverAndClient
        let daemon = try startDaemon(core: cores?.server)
        let stored = try daemon.store([source], in: Self.bucket)[0]
        let target = daemon.base.absoluteString + "/v1/render/" + stored
        let beforeMisses = try await storeRequests(of: daemon)
        let misses = try await Self.misses(of: target)
        let missPhase = try await storeRequests(of: daemon).since(beforeMisses)

        let hit = try await prepareHit(on: daemon, at: target)
        let nginx = try StaticFileServer(root: daemon.root.path, workers: 1, core: cores?.server)
        if nginx == nil {
            Console.error("bench: nginx is not installed (bash scripts/bench-setup.sh): no yardstick")
        }
        var rows: [HitRow] = []
        var hitPhase = StoreRequests()
        for connections in Self.connections {
            /// The timed run, and the daemon's store requests during it (not during the warm-up).
            func drive(_ server: String, _ url: String, round: Int) async throws -> (
                WrkRun.Result, StoreRequests
            ) {
                let before = try await storeRequests(of: daemon)
                let result = try Self.drive(
                    server, url, connections: connections, for: seconds, core: cores?.client, round: round)
                return (result, try await storeRequests(of: daemon).since(before))
            }
            var variantd: [WrkRun.Result] = []
            var nginxRounds: [WrkRun.Result] = []
            for round in 1...Self.rounds {
                let (result, counted) = try await drive("variantd", hit.url, round: round)
                variantd.append(result)
                hitPhase = hitPhase.adding(counted)
                if let nginx {
                    let url = nginx.base.absoluteString + "/" + hit.rendition
                    nginxRounds.append(try await drive("nginx", url, round: round).0)
                }
            }
            rows.append(
                HitRow(
                    connections: connections, variantd: .median(of: variantd),
                    nginx: nginxRounds.isEmpty ? nil : .median(of: nginxRounds)))
        }
        var beside: [StoreHitComparison.Row] = []
        if store != nil {
            var folder = self
            folder.store = nil
            beside = try await StoreHitComparison(folder: folder, core: cores?.server, client: cores?.client)
                .run(storeHit: hit.url, seconds: seconds)
        }
        _ = daemon.stop()
        if cores != nil { rows.append(try await unpinnedRow()) }
        let table = Self.table(
            misses: misses, hits: rows, renditionBytes: hit.size, pinned: cores != nil,
            store: store == nil ? nil : (missPhase, hitPhase))
        return beside.isEmpty
            ? table : table + "\n\n" + StoreHitComparison.table(beside, pinned: cores != nil)
    }

    func startDaemon(core: Int?) throws -> BenchDaemon {
        try BenchDaemon(
            slots: slots, buckets: [Self.bucket: #"{"name": "\#(Self.bucket)", "public": true}"#], core: core,
            store: store)
    }

    /// The hit's rendition made once, and found as a file of the daemon's folder; from object storage,
    /// nginx serves a copy of the same bytes from it.
    func prepareHit(on daemon: BenchDaemon, at target: String) async throws -> Hit {
        let url = target + "?" + Self.hitQuery
        guard await Self.get(url).status == 200 else {
            throw BenchDaemon.Failure(description: "\(url) did not answer 200")
        }
        let spec = try Transform(query: [("width", "600"), ("format", "webp")], accept: nil).spec
        let specKey = RenditionKey.specKey(of: spec)
        guard let checksum = SourceChecksum.of(source) else {
            throw BenchDaemon.Failure(description: "\(source) cannot be read")
        }
        for file in daemon.renditions?.stored(sourceChecksum: checksum, specKeys: [specKey]) ?? [] {
            let path = daemon.root.appendingPathComponent(file.key)
            try FileManager.default.createDirectory(
                at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: path)
        }
        let folder = try RenditionFolder(root: daemon.root.path)
        guard let rendition = folder.listing(ofSource: checksum)[specKey] else {
            throw BenchDaemon.Failure(description: "the hit's rendition is not in the store")
        }
        // A file changed lately is hashed again on each request (its identity does not yet vouch for its
        // bytes: `FileIdentity.isSettled`, up to two seconds where times are whole seconds): the source and
        // the rendition were just written, and hits are timed once the daemon remembers them.
        try await Task.sleep(for: .seconds(2))
        return Hit(url: url, rendition: rendition, size: folder.existing(rendition)?.count ?? 0)
    }

    /// The last row: the daemon restarted at its defaults and nginx with a worker per core, wrk beside them,
    /// nothing pinned, at the most connections.
    private func unpinnedRow() async throws -> HitRow {
        let daemon = try startDaemon(core: nil)
        defer { _ = daemon.stop() }
        let stored = try daemon.store([source], in: Self.bucket)[0]
        let hit = try await prepareHit(on: daemon, at: daemon.base.absoluteString + "/v1/render/" + stored)
        let connections = Self.connections.last ?? 64
        let variantd = try Self.drive("variantd, unpinned", hit.url, connections: connections, for: seconds)
        let nginx = try StaticFileServer(
            root: daemon.root.path, workers: ProcessInfo.processInfo.activeProcessorCount, core: nil)
        let nginxResult = try nginx.map {
            try Self.drive(
                "nginx, unpinned", $0.base.absoluteString + "/" + hit.rendition, connections: connections,
                for: seconds)
        }
        return HitRow(connections: connections, variantd: variantd, nginx: nginxResult, unpinned: true)
    }

    /// One second of warm-up before a server's first round, then `seconds` timed.
    static func drive(
        _ server: String, _ url: String, connections: Int, for seconds: Int, core: Int? = nil, round: Int = 1
    ) throws -> WrkRun.Result {
        Console.error(
            "bench: render hits, \(server), \(connections) connections"
                + (round > 1 ? ", round \(round)" : ""))
        if round == 1 { _ = try WrkRun(url: url, connections: connections, seconds: 1, core: core).run() }
        return try WrkRun(url: url, connections: connections, seconds: seconds, core: core).run()
    }

    /// The daemon's store requests so far; none are read for a folder.
    private func storeRequests(of daemon: BenchDaemon) async throws -> StoreRequests {
        store == nil ? StoreRequests() : try await StoreRequests.settled(from: daemon.base)
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
        misses: [(format: String, seconds: [Double])], hits: [HitRow], renditionBytes: Int, pinned: Bool,
        store: (misses: StoreRequests, hits: StoreRequests)?
    ) -> String {
        func ms(_ seconds: Double) -> String { BenchTable.fixed(seconds * 1000, 2) }
        var lines = [
            "Hits: \(hitQuery) (\(renditionBytes) bytes) driven by wrk; "
                + (pinned
                    ? "each server pinned to core 1, wrk to core 0, its median of \(rounds) alternating rounds; on "
                        + "both cores, nothing pinned, the daemon at its defaults and nginx with a worker per core, one "
                        + "round."
                    : "one core: nothing pinned."),
            "",
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
                "\(row.connections)" + (row.unpinned ? ", both cores" : ""),
                BenchTable.fixed(row.variantd.requestsPerSecond, 0),
                nginx.map { BenchTable.fixed($0.requestsPerSecond, 0) } ?? "",
                nginx.map { BenchTable.fixed(row.variantd.requestsPerSecond / $0.requestsPerSecond, 2) + "×" }
                    ?? "",
                ms(row.variantd.p50) + " / " + ms(row.variantd.p99),
                nginx.map { ms($0.p50) + " / " + ms($0.p99) } ?? "",
                "\(row.variantd.failures + (nginx?.failures ?? 0))",
            ])
        }
        lines += BenchTable.table(rows)
        if let store {
            lines += [
                "",
                "Store requests per miss and per hit the daemon answered (wrk leaves out those in flight when it "
                    + "stops); answers of another outcome are counted apart:", "",
            ]
            func row(_ name: String, _ answered: Int, _ phase: StoreRequests) -> [String] {
                func each(_ count: Int, _ digits: Int = 2) -> String {
                    BenchTable.fixed(Double(count) / Double(max(answered, 1)), digits)
                }
                let perOperation = ["head", "get", "put", "list"].map { each(phase.requests[$0, default: 0]) }
                return [name, "\(answered)", "\(phase.otherAnswers)"] + perOperation
                    + [each(phase.receivedBytes, 0)]
            }
            lines += BenchTable.table(
                [
                    ["phase", "answered", "other answers", "HEAD", "GET", "PUT", "LIST", "bytes received"],
                    row("miss", store.misses.misses, store.misses), row("hit", store.hits.hits, store.hits),
                ])
        }
        return lines.joined(separator: "\n")
    }
}
