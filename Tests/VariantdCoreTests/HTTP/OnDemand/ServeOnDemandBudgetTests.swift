import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `serve --on-demand-budget` over real HTTP against the built daemon: transforms' renditions beyond the
/// budget leave the store oldest first, the declared variant stays, and an evicted one is rendered again.
@Suite struct ServeOnDemandBudgetTests {
    private static let gradient = "/v1/render/pics/2026/gradient.jpg"
    private static let transforms = [40, 60, 80, 100].map { "?width=\($0)&format=jpeg" }

    @Test func evictsTheLeastRecentlyUsedTransformsAndKeepsTheDeclaredVariant() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()

        // The sizes of the renditions, from a daemon without a budget.
        let unbounded = try fixture.start()
        #expect(try unbounded.render(Self.gradient + "?variant=thumb").status == 200)
        let thumb = try #require(Array(renditions(in: fixture.out).keys).first)
        var keys: [String] = []
        for query in Self.transforms {
            let before = Set(renditions(in: fixture.out).keys)
            #expect(try unbounded.render(Self.gradient + query).status == 200)
            keys.append(try #require(Set(renditions(in: fixture.out).keys).subtracting(before).first))
        }
        unbounded.kill()
        let sizes = renditions(in: fixture.out)
        for key in keys { try FileManager.default.removeItem(at: fixture.out.appendingPathComponent(key)) }

        // Room for the two newest transforms only.
        let budget = sizes[keys[2]]! + sizes[keys[3]]!
        let daemon = try fixture.start(["--on-demand-budget", String(budget)])
        #expect(try daemon.render(Self.gradient + "?variant=thumb").status == 200)
        for query in Self.transforms {
            #expect(try daemon.render(Self.gradient + query).status == 200)
        }
        // A rendition's file goes before it is counted.
        waitUntil { (try? daemon.metric(line: "variantd_on_demand_evictions_total")) == 2 }
        #expect(!exists(fixture, keys[0]) && !exists(fixture, keys[1]))
        #expect(exists(fixture, keys[2]) && exists(fixture, keys[3]) && exists(fixture, thumb))
        #expect(try daemon.metric(line: "variantd_on_demand_evictions_total") == 2)
        #expect(try daemon.metric(line: "variantd_on_demand_bytes") == Double(budget))

        // Asked again, an evicted transform is rendered again.
        let again = try daemon.render(Self.gradient + Self.transforms[0])
        #expect(again.status == 200 && again.body.count == sizes[keys[0]])
        #expect(exists(fixture, thumb))
        #expect(try daemon.metric(line: "variantd_renders_total") == 5)
    }

    /// Renditions under `out` by key, with their sizes; hidden names (the quarantine, temporary files) left out.
    private func renditions(in out: URL) -> [String: Int] {
        var found: [String: Int] = [:]
        let files = FileManager.default
        for case let key as String in files.enumerator(atPath: out.path) ?? NSEnumerator()
        where key.split(separator: "/").count == 3
            && !key.split(separator: "/").contains(where: { $0.hasPrefix(".") })
        {
            let size = (try? files.attributesOfItem(atPath: out.path + "/" + key)[.size] as? NSNumber)?
                .intValue
            found[key] = size ?? 0
        }
        return found
    }

    private func exists(_ fixture: ServeFixture, _ key: String) -> Bool {
        FileManager.default.fileExists(atPath: fixture.out.appendingPathComponent(key).path)
    }

    /// Removals run in the background of the answers: waits for one, at most 30 s.
    private func waitUntil(_ condition: () -> Bool) {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
