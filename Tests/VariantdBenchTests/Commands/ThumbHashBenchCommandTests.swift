import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdBench
@testable import VariantdCore

/// `variantd thumbhash-bench` through the built binary: its own command, no longer an action of the product's
/// `thumbhash`. No assertion on speed.
@Suite struct ThumbHashBenchCommandTests {
    @Test func printsEveryFigureAsJSON() async throws {
        let finished = try await VariantdProcess.run(
            ["thumbhash-bench", "--iterations", "3", "--json"], within: .seconds(120))
        #expect(finished.status == 0, "\(finished.stderr.suffix(2000))")
        let figures = try WireJSON.decode(BenchReport.ThumbHashFigures.self, from: Data(finished.stdout.utf8))
        #expect(figures.iterations == 3 && figures.rounds == ThumbHashBenchmark.rounds)
        let swift = figures.swift
        #expect(
            [swift.encodeOpaque, swift.encodeAlpha, swift.decodeOpaque, swift.decodeAlpha].allSatisfy {
                $0 > 0
            })
        #expect(figures.thumbhashRs == nil)
    }

    @Test func theProductsThumbHashCommandHasNoBenchAction() async throws {
        let finished = try await VariantdProcess.run(["thumbhash", "bench"], within: .seconds(60))
        #expect(finished.status == ExitStatus.usage.rawValue)
        #expect(finished.stderr.contains("Unknown action 'bench'"))
    }

    @Test func anOperandIsAUsageError() {
        var arguments = Arguments(["--json", "now"])
        #expect(throws: UsageError.self) { try ThumbHashBenchCommand(parsing: &arguments) }
    }
}
