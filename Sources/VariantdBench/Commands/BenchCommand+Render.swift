import Foundation
import VariantdCore

/// `--serve --render`: on-demand renditions of the first picture of the `--only` corpus (default jpeg), with
/// `--store` from object storage.
extension BenchCommand {
    func measureRender() async throws -> String {
        Self.warnOfDebugBuild()
        let found = CorpusDiscovery.discover(corpusDirectory)
        let corpus = found.first { only?.contains($0.name) ?? ($0.name == "jpeg") } ?? found.first
        guard let source = corpus?.files.first else { throw UsageError("no pictures found to measure") }
        let loadBefore = LoadAverage.oneMinute()
        var load = RenderLoad(source: source, slots: jobs, seconds: renderSeconds)
        if let store, case .bucket(let location) = try StoreLocation(store) { load.store = location }
        let table = try await load.run()
        return table + "\n\nLoad average before/after: \(loadBefore) / \(LoadAverage.oneMinute()); "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores, slots \(jobs)."
    }
}
