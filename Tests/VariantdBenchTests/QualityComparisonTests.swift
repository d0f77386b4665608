import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdBench
@testable import VariantdCore

/// `variantd bench --quality`: the twinned bucket, the goals as the table states them, and one real run on a
/// sample picture. No assertion on speed.
@Suite struct QualityComparisonTests {
    @Test func everyVariantHasALosslessTwinOfTheSameGeometry() throws {
        let twinned = try BucketDeclaration(parsing: QualityComparison.twinnedDeclaration())
        #expect(twinned.variants.count == 2 * QualityComparison.bucket.variants.count)
        for variant in QualityComparison.bucket.variants {
            let twin = try #require(twinned.variant(named: variant.name + QualityComparison.twinSuffix))
            #expect(twin.format == .png && twin.quality == nil)
            #expect(twin.width == variant.width && twin.height == variant.height && twin.fit == variant.fit)
            #expect(twinned.variant(named: variant.name) == variant)
        }
    }

    @Test func tableStatesEachGoalWithItsBound() {
        typealias Renditions = QualityComparison.Renditions
        func variant(_ name: String, _ format: String, ours: Renditions, pyvips: Renditions)
            -> QualityComparison.Variant
        {
            .init(name: name, format: format, ours: ours, pyvips: pyvips)
        }
        let quality = QualityComparison(
            pictures: ["/c/a.jpg", "/c/b.jpg"],
            variants: [
                variant(
                    "large", "jpeg", ours: .init(bytes: [300, 500], scores: [80, 82]),
                    pyvips: .init(bytes: [500, 500], scores: [82, 82])),
                variant(
                    "medium", "webp", ours: .init(bytes: [90, 90], scores: [70, 70]),
                    pyvips: .init(bytes: [100, 100], scores: [70, 70])),
                variant(
                    "thumb", "webp", ours: .init(bytes: [9, 9], scores: [60, 60]),
                    pyvips: .init(bytes: [10, 10], scores: [61, 61])),
            ],
            skipped: [], pyvipsTool: "pyvips-8.18", scorer: "ssimulacra2 0.3.0")
        let table = BenchTable.render(BenchReport(runs: [], quality: quality), reference: nil)
        #expect(table.contains("| webp   | all     | 198 "))
        #expect(table.contains("JPEG bytes 0.800× pyvips-8.18's, bound ≤ 0.80×: met"))
        #expect(table.contains("JPEG score 81.00, bound ≥ 81.00 (pyvips-8.18's 82.00 − 1.0): met"))
        #expect(table.contains("WebP bytes 0.900× pyvips-8.18's, bound ≤ 0.92×: met"))
        #expect(table.contains("WebP score 65.00, bound ≥ 64.50 (pyvips-8.18's 65.50 − 1.0): met"))
        #expect(!table.contains("previous"))
    }

    @Test func previousAndAutoGoWithQuality() {
        var alone = Arguments(["--previous", TestPaths.variantd])
        #expect(throws: UsageError.self) { try BenchCommand(parsing: &alone) }
        var auto = Arguments(["--auto"])
        #expect(throws: UsageError.self) { try BenchCommand(parsing: &auto) }
        var missing = Arguments(["--quality", "--previous", "/nonexistent/variantd"])
        #expect(throws: UsageError.self) { try BenchCommand(parsing: &missing) }
    }

    @Test(
        .enabled(
            if: QualityComparison.isInstalled,
            "needs .build/bench-venv-binary and .build/bench-venv-ssimulacra2 (bash scripts/bench-setup.sh)"),
        .timeLimit(.minutes(5)))
    func runsOnOneSamplePictureBesideItself() async throws {
        let corpus = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: corpus) }
        try FileManager.default.copyItem(
            at: TestPaths.samples.appendingPathComponent("pictures/orientation-6.jpg"),
            to: corpus.appendingPathComponent("orientation-6.jpg"))
        let finished = try await VariantdProcess.run(
            ["bench", "--quality", "--corpus", corpus.path, "--previous", TestPaths.variantd, "--auto"],
            within: .seconds(240))
        #expect(finished.status == 0, "\(finished.stderr.suffix(2000))")

        let rows = finished.stdout.split(separator: "\n").map {
            $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { ["jpeg", "webp"].contains($0.first) }
        // The main table's rows have ten cells, those of quality "auto" six.
        let autoRows = rows.filter { $0.count == 6 }
        let mainRows = rows.filter { $0.count == 10 }
        #expect(mainRows.map { $0[1] } == ["large", "medium", "thumb", "all"])
        for row in mainRows {
            let bytes = [row[2], row[3], row[7]].compactMap { Int($0) }
            let scores = [row[5], row[6], row[9]].compactMap { Double($0) }
            #expect(bytes.count == 3 && bytes.allSatisfy { $0 > 0 }, "\(row)")
            #expect(scores.count == 3 && scores.allSatisfy { (0...100).contains($0) }, "\(row)")
            // The same binary renders the same bytes, scored the same.
            #expect(row[2] == row[7] && row[8] == "1.000" && row[5] == row[9], "\(row)")
        }
        #expect(finished.stdout.contains("Goals against pyvips-8."))

        // Quality "auto" reaches each format's target, by the referee too (its scorer agrees with ours).
        #expect(autoRows.map { $0[1] } == QualityComparison.bucket.variants.map(\.name))
        for row in autoRows {
            let target = try #require(OutputFormat(rawValue: row[0])?.defaultScoreTarget)
            let score = try #require(Double(row[4]), "\(row)")
            #expect(Int(row[2]) ?? 0 > 0 && score >= Double(target) - 0.5, "\(row)")
        }
        #expect(finished.stdout.contains("CPU of the batch, decoder children included: declared "))
    }
}
