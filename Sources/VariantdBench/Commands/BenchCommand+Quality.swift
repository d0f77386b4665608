import Foundation
import VariantdCore

/// `--quality`: the default bucket's renditions of the `--only` corpora (default jpeg: pictures pyvips decodes
/// too) beside pyvips', bytes and SSIMULACRA2; nothing timed.
extension BenchCommand {
    func measureQuality() throws -> BenchReport {
        let files = CorpusDiscovery.discover(corpusDirectory).filter { (only ?? ["jpeg"]).contains($0.name) }
            .flatMap(\.files)
        guard !files.isEmpty else { throw UsageError("no pictures found to measure") }
        let loadBefore = LoadAverage.oneMinute()
        let quality = try QualityComparison.measure(files, previous: previous, auto: qualityAuto)
        return BenchReport(
            runs: [], conditions: .init(iterations: 1, warmups: 1, loadBefore: loadBefore), quality: quality)
    }
}
