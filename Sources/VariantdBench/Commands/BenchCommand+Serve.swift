import Foundation
import VariantdCore

/// `--serve`: the daemon under load, on the `--only` corpora (default jpeg, else the first found).
extension BenchCommand {
    func measureServe() async throws -> BenchReport {
        Self.warnOfDebugBuild()
        let found = CorpusDiscovery.discover(corpusDirectory)
        let corpora =
            only.map { names in found.filter { names.contains($0.name) } }
            ?? (found.first { $0.name == "jpeg" } ?? found.first).map { [$0] } ?? []
        guard !corpora.isEmpty else { throw UsageError("no pictures found to measure") }
        let loadBefore = LoadAverage.oneMinute()
        let load = ServeLoad(
            corpora: corpora, slots: jobs, clients: serveClients, requests: serveRequests,
            soakJobs: serveSoak,
            soakFiles: serveSoak == nil
                ? []
                : CorpusDiscovery.pictures(
                    under: BenchPaths.root + "/" + CorpusDiscovery.samples
                ).map(\.path).sorted(),
            overloadFactor: overloadSeconds.map { _ in 5 }, overloadSeconds: overloadSeconds ?? 120)
        let serve = try await load.run()
        return BenchReport(
            runs: [], conditions: .init(iterations: 1, warmups: 1, loadBefore: loadBefore), serve: serve)
    }
}
