import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench
@testable import VariantdCore

/// The AVIF comparison's size match: the quality it picks gives the file closest to the size asked for, and
/// the table states size, SSIM and speed against pyvips from the rows.
@Suite struct AvifComparisonTests {
    static let source = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

    @Test func matchedQualityGivesTheClosestSize() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.avif").path
        let target = try AvifComparison.measureOurs(
            source: Self.source, quality: 37, iterations: 1, output: output, tool: AvifComparison.oursTool
        ).bytes
        let quality = try AvifComparison.quality(matching: target, source: Self.source)
        let matched = try AvifComparison.measureOurs(
            source: Self.source, quality: quality, iterations: 1, output: output,
            tool: AvifComparison.matchedTool)
        #expect(matched.bytes == target, "q\(quality) gave \(matched.bytes) bytes for a target of \(target)")
        let below = try AvifComparison.quality(matching: 1, source: Self.source)
        #expect(below == 1)
    }

    @Test func tableStatesTheMatchedSizeAgainstPyvips() {
        typealias Encoding = AvifComparison.Encoding
        let avif = AvifComparison(
            source: "/c/Nikon_D90.jpg",
            encodings: [
                Encoding(
                    tool: "variantd", encodeSeconds: 0.1, bytes: 115_000, width: 1600, height: 1063,
                    ssim: 0.965,
                    quality: 60),
                Encoding(
                    tool: "pyvips-8.18", encodeSeconds: 6.6, bytes: 130_000, width: 1600, height: 1063,
                    ssim: 0.9727),
                Encoding(
                    tool: "variantd at pyvips' size", encodeSeconds: 0.1, bytes: 131_300, width: 1600,
                    height: 1063, ssim: 0.9687, quality: 64),
            ])
        let table = BenchTable.render(BenchReport(runs: [], avif: avif), reference: nil)
        #expect(
            table.contains("variantd at pyvips' size (q64): 0.100 s, 131300 bytes, 1600×1063, SSIM 0.9687"))
        #expect(table.contains("at pyvips' size: +1.0 % bytes, SSIM -0.0040 from pyvips', 66.0× faster"))
    }
}
