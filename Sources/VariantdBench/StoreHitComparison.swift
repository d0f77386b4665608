import Foundation

/// Hits on renditions in object storage beside hits on renditions in a folder, in the same run: the daemon
/// over the store, at its defaults (the source's identity trusted for `--source-ttl`, the rendition sent from
/// its local cache), and a second daemon over a folder holding the same picture, each pinned to the same
/// core and driven by wrk from another, alternating rounds so that the host's noise falls on both alike.
struct StoreHitComparison: Sendable {
    /// Makes the folder daemon: the render load with no store.
    var folder: RenderLoad
    /// The core both daemons are pinned to, and wrk's; nil leaves them to the scheduler.
    var core: Int?
    var client: Int?

    static let connections = [1, 16]

    struct Row: Sendable {
        var connections: Int
        var store: WrkRun.Result
        var folder: WrkRun.Result
    }

    /// Drives `storeHit` (the store daemon's hit URL) and the folder daemon's hit of the same picture.
    func run(storeHit: String, seconds: Int) async throws -> [Row] {
        let daemon = try folder.startDaemon(core: core)
        defer { _ = daemon.stop() }
        let stored = try daemon.store([folder.source], in: RenderLoad.bucket)[0]
        let folderHit = try await folder.prepareHit(
            on: daemon, at: daemon.base.absoluteString + "/v1/render/" + stored)
        var rows: [Row] = []
        for connections in Self.connections {
            var store: [WrkRun.Result] = []
            var folder: [WrkRun.Result] = []
            for round in 1...RenderLoad.rounds {
                store.append(
                    try RenderLoad.drive(
                        "variantd over s3", storeHit, connections: connections, for: seconds, core: client,
                        round: round))
                folder.append(
                    try RenderLoad.drive(
                        "variantd over a folder", folderHit.url, connections: connections, for: seconds,
                        core: client, round: round))
            }
            rows.append(Row(connections: connections, store: .median(of: store), folder: .median(of: folder)))
        }
        return rows
    }

    static func table(_ rows: [Row], pinned: Bool) -> String {
        func ms(_ seconds: Double) -> String { BenchTable.fixed(seconds * 1000, 2) }
        var lines = [
            "S3 hits beside folder hits: the same picture and transform, one daemon over the store at its "
                + "defaults (source identity trusted 5 s, renditions from the local rendition cache) and one "
                + "over a folder, "
                + (pinned
                    ? "each pinned to core 1, wrk to core 0, the median of \(RenderLoad.rounds) alternating rounds."
                    : "nothing pinned, the median of \(RenderLoad.rounds) alternating rounds."),
            "",
        ]
        var table = [
            [
                "connections", "S3 req/s", "folder req/s", "S3 / folder", "S3 p50 / p99 ms",
                "folder p50 / p99 ms", "failed",
            ]
        ]
        for row in rows {
            table.append([
                "\(row.connections)", BenchTable.fixed(row.store.requestsPerSecond, 0),
                BenchTable.fixed(row.folder.requestsPerSecond, 0),
                BenchTable.fixed(row.store.requestsPerSecond / max(row.folder.requestsPerSecond, 1), 2) + "×",
                ms(row.store.p50) + " / " + ms(row.store.p99),
                ms(row.folder.p50) + " / " + ms(row.folder.p99),
                "\(row.store.failures + row.folder.failures)",
            ])
        }
        lines += BenchTable.table(table)
        return lines.joined(separator: "\n")
    }
}
