import Foundation
import Testing
import VariantdTestSupport

@testable import Variants

/// Transforms of randomly chosen options, each value in randomly chosen equal spellings and the options in
/// random order: every spelling reads, lands on one key, crosses to a decoder child unchanged and plans to
/// positive sizes. The seed is fixed, so a failure is the same on every run.
@Suite struct RandomTransformTests {
    /// One option's value, as the spellings that must all read the same.
    typealias Spellings = [String]

    /// Each option with a way to pick a value and spell it several ways.
    static let options: [(name: String, pick: @Sendable (inout SplitMix64) -> Spellings)] = [
        ("width", { g in side(&g) }),
        ("height", { g in side(&g) }),
        ("fit", { g in [["cover", "contain", "fill", "inside", "outside"].randomElement(using: &g)!] }),
        ("format", { g in [["jpeg", "png", "webp", "avif", "original"].randomElement(using: &g)!] }),
        ("quality", { g in integer(1...100, &g) }),
        ("blur", { g in integer(0...20, &g) }),
        ("rotate", { g in quarterTurn(&g) }),
        ("background", { _ in ["#fff", "[255,255,255]", "#ffffffff"] }),
        ("dpr", { g in ratio(&g) }),
        ("flip", { g in [["h"], ["v"], ["hv", "vh"]].randomElement(using: &g)! }),
        ("trim", { g in integer(0...255, &g) }),
        // `position` and `focus` exclude each other: one of them, under its own name.
        ("position", { g in [["centre", "center"], ["north"], ["attention"]].randomElement(using: &g)! }),
        ("focus", { g in focus(&g) }),
        ("metadata", { g in [["none"], ["copyright", "\"copyright\""]].randomElement(using: &g)! }),
        ("watermark", { g in [["logo", "\"logo\""], ["other"]].randomElement(using: &g)! }),
    ]

    /// The watermarks `watermark` chooses from: two files, two settings.
    static let watermarks = try! BucketDeclaration(
        parsing: #"""
            {"name": "w", "watermarks": {"logo": {"file": "logo.png"},
             "other": {"file": "other.png", "position": "centre", "opacity": 0.5, "width": 1}}}
            """#.utf8, readFile: BucketDeclaration.testFiles
    ).watermarks

    private static func integer(_ range: ClosedRange<Int>, _ g: inout SplitMix64) -> Spellings {
        let value = Int.random(in: range, using: &g)
        return ["\(value)", "\(value).0", "\(value)e0"]
    }

    private static func quarterTurn(_ g: inout SplitMix64) -> Spellings {
        let degrees = 90 * Int.random(in: 0...3, using: &g)
        return ["\(degrees)", "\(degrees - 360)"]
    }

    private static func side(_ g: inout SplitMix64) -> Spellings {
        let side = Int.random(in: 1...5000, using: &g)
        return ["\(side)", "\(side).0", "\(side)e0"]
    }

    private static func ratio(_ g: inout SplitMix64) -> Spellings {
        let tenths = Int.random(in: 10...40, using: &g)
        return ["\(Double(tenths) / 10)", "\(tenths)e-1", "\(Double(tenths) / 10)0"]
    }

    private static func focus(_ g: inout SplitMix64) -> Spellings {
        let (x, y) = (Int.random(in: 0...100, using: &g), Int.random(in: 0...100, using: &g))
        let (fx, fy) = (Double(x) / 100, Double(y) / 100)
        return ["\(fx),\(fy)", "[\(fx),\(fy)]", "\(x)e-2,\(y)e-2"]
    }

    @Test func everySpellingOfARandomTransformIsOneRendition() throws {
        var generator = SplitMix64(seed: 43)
        for _ in 0..<400 {
            var chosen = Self.options.filter { _ in Bool.random(using: &generator) }
            if chosen.contains(where: { $0.name == "focus" }) { chosen.removeAll { $0.name == "position" } }
            let values = chosen.map { ($0.name, $0.pick(&generator)) }
            var keys: Set<String> = []
            var specs: [VariantSpec] = []
            for _ in 0..<3 {
                let query = values.shuffled(using: &generator).map { name, spellings in
                    (name: name, value: spellings.randomElement(using: &generator)!)
                }
                let spec = try Transform(query: query, accept: nil, watermarks: Self.watermarks).spec
                keys.insert(RenditionKey.specKey(of: spec))
                specs.append(spec)
            }
            #expect(keys.count == 1, "\(values)")
            let spec = specs[0]
            let wire = try JSONDecoder().decode(VariantSpec.self, from: JSONEncoder().encode(spec))
            #expect(wire == spec, "\(values)")
            for (width, height) in [(1, 1), (1, 9_000), (9_000, 1), (640, 480)] {
                let trim = spec.trim.map { _ in RenderPlan.Region(x: 0, y: 0, width: 1, height: 1) }
                let plan = RenderPlan(
                    sourceWidth: width, sourceHeight: height, spec: spec, sourceHasAlpha: false,
                    sourceFormat: .jpeg, trim: trim)
                #expect(plan.outputWidth > 0 && plan.outputHeight > 0, "\(values)")
            }
        }
    }
}
