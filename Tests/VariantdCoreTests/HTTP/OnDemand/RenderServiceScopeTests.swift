import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// A bucket that takes only its declared variants, or only declared widths: other transforms are `403`
/// before the source is read, and nothing is written to the rendition store.
@Suite struct RenderServiceScopeTests {
    private typealias World = RenderServiceBudgetTests.CountingWorld

    private static let nothingSpent = RenderServiceBudgetTests.Counts(
        sourceReads: 0, sourceHashes: 0, listings: 0, lookups: 0, renditionReads: 0)

    /// The files under the world's rendition store.
    private func renditionFiles(_ world: World) -> [String] {
        let root = world.directory.appendingPathComponent("renditions")
        let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        return (walk?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }.map(\.path)
    }

    private func error(of response: HTTPResponse) -> String? {
        let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return json?["error"] as? String
    }

    @Test func declaredOnlyRefusesOptionsAndServesVariants() async throws {
        let world = try World(
            declaration: #"""
                {"name": "pics", "public": true, "transforms": "declared",
                 "variants": {"thumb": {"width": 48, "height": 48, "format": "webp"}}}
                """#)
        defer { world.remove() }
        for query in ["width=64&format=webp", "variant=thumb&width=64", "format=png", "width=-1", ""] {
            let refused = await world.service.answer(world.get(query))
            let expected = query.hasPrefix("variant") ? 400 : 403
            #expect(refused.status == expected, "\(query): \(String(decoding: refused.body, as: UTF8.self))")
            if expected == 403 { #expect(error(of: refused) == "transforms_declared_only", "\(query)") }
        }
        #expect(world.counts == Self.nothingSpent)
        #expect(renditionFiles(world).isEmpty)

        let variant = await world.service.answer(world.get("variant=thumb"))
        #expect(variant.status == 200, "\(String(decoding: variant.body, as: UTF8.self))")
        #expect(renditionFiles(world).count == 1)
    }

    @Test func widthsRefuseOtherWidths() async throws {
        let world = try World(declaration: #"{"name": "pics", "public": true, "widths": [32, 64]}"#)
        defer { world.remove() }
        for query in ["width=100&format=webp", "height=64", "format=webp", "width=65"] {
            let refused = await world.service.answer(world.get(query))
            #expect(refused.status == 403, "\(query): \(String(decoding: refused.body, as: UTF8.self))")
            #expect(error(of: refused) == "width_not_declared", "\(query)")
        }
        #expect(world.counts == Self.nothingSpent)
        #expect(renditionFiles(world).isEmpty)

        let declared = await world.service.answer(world.get("width=64&format=webp"))
        #expect(declared.status == 200, "\(String(decoding: declared.body, as: UTF8.self))")
        let again = await world.service.answer(world.get("width=64.0&height=40&format=webp"))
        #expect(again.status == 200)
        #expect(renditionFiles(world).count == 2)
    }
}
