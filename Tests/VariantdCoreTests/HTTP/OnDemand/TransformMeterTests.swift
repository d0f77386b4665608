import Foundation
import Synchronization
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// The monthly transform allowance as render requests meet it: in process with an injected clock, and over
/// HTTP against the built daemon, one daemon and two sharing a PostgreSQL queue.
@Suite(.postgresServer) struct TransformMeterTests {
    private static let november = Date(timeIntervalSince1970: 1_794_960_000)  // 2026-11-18
    private static let december = Date(timeIntervalSince1970: 1_796_860_800)  // 2026-12-10

    private func transform(_ key: String) -> TransformMeter.Transform {
        TransformMeter.Transform(account: "acme", bucket: "pics", object: "a.jpg", specKey: key)
    }

    @Test func aNewMonthCountsAgainFromNothing() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = try await SQLiteQueue(path: directory.appendingPathComponent("queue.sqlite3").path)
        try await queue.setAccount(Account(name: "acme", transformsPerMonth: 1, overage: .refused))
        let now = Mutex(Self.november)
        let meter = TransformMeter(allowance: queue, metrics: ServerMetrics(), clock: { now.withLock { $0 } })

        try await meter.count(transform("one"))
        #expect(meter.isCounted(transform("one")))
        let refusal = await #expect(throws: AnswerError.self) { try await meter.count(transform("two")) }
        #expect(refusal?.code == "plan_feature_locked" && refusal?.statusCode == 403)

        now.withLock { $0 = Self.december }
        #expect(!meter.isCounted(transform("one")), "counted last month only")
        try await meter.count(transform("two"))
        #expect(try await queue.usage(account: "acme", month: nil).map(\.month) == ["2026-11", "2026-12"])
    }

    @Test func theBoundaryOfAnAllowance() throws {
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemon = try fixture.start()
        let account = Array(#"{"transformsPerMonth": 3, "overage": "refused"}"#.utf8)
        #expect(try daemon.send("PUT", "/v1/accounts/pics", body: account).status == 200)
        #expect(try daemon.send("GET", "/v1/accounts/pics").json["transformsPerMonth"] as? Int == 3)
        let gradient = "/v1/render/pics/2026/gradient.jpg"

        for width in [10, 20, 30] {
            let reply = try daemon.send("GET", gradient + "?width=\(width)")
            #expect(reply.status == 200, "\(width): \(reply.text)")
        }
        let fourth = try daemon.send("GET", gradient + "?width=40")
        #expect(fourth.status == 403 && fourth.error == "plan_feature_locked", "\(fourth.text)")
        #expect(try daemon.send("GET", gradient + "?width=10").status == 200, "counted this month: free")
        #expect(try daemon.send("GET", gradient + "?variant=thumb").status == 200, "declared: never counted")
        #expect(try daemon.job(ServeFixture.job("up/gradient.jpg")).status == 200, "an upload's variants")

        let allowed = Array(#"{"transformsPerMonth": 3, "overage": "allowed"}"#.utf8)
        #expect(try daemon.send("PUT", "/v1/accounts/pics", body: allowed).status == 200)
        #expect(try daemon.send("GET", gradient + "?width=40").status == 200)
        let usage = try daemon.send("GET", "/v1/accounts/pics/usage")
        #expect(usage.json["total"] as? Int == 4, "\(usage.text)")
        let metrics = try daemon.send("GET", "/metrics").text
        #expect(metrics.contains(#"variantd_transforms_total{account="pics"} 4"#))
        #expect(metrics.contains(#"variantd_transforms_refused_total{account="pics"} 1"#))

        let bad = try daemon.send(
            "PUT", "/v1/accounts/pics", body: Array(#"{"transformsPerMonth": -1}"#.utf8))
        #expect(bad.status == 400 && bad.error == "invalid_request")
        #expect(try daemon.send("PUT", "/v1/accounts/pics", body: account, authorization: nil).status == 401)
    }

    /// Two daemons on one PostgreSQL queue, 50 new transforms at once against an allowance of 10.
    @Test(.enabled(if: PostgresServer.isAvailable, "PostgreSQL is not installed"))
    func twoDaemonsNeverPassTheAllowanceTogether() throws {
        let server = try #require(PostgresServer.current)
        let queue = try server.freshDatabase()
        let fixture = try ServeFixture()
        defer { fixture.remove() }
        try fixture.addRenderBuckets()
        let daemons = try (0..<2).map { _ in
            try fixture.start(["--queue", queue, "--slots", "2", "--queue-depth", "64"])
        }
        let account = Array(#"{"transformsPerMonth": 10, "overage": "refused"}"#.utf8)
        #expect(try daemons[0].send("PUT", "/v1/accounts/pics", body: account).status == 200)
        // Fifty curl processes started before any is waited for: their requests race in the two daemons.
        let calls = try (0..<50).map { index in
            try daemons[index % 2].start("GET", "/v1/render/pics/2026/gradient.jpg?width=\(10 + index)")
        }
        let statuses = try calls.map { try $0.finish().status }
        #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
        #expect(statuses.filter { $0 == 403 }.count == 40, "\(statuses)")
    }
}
