import Foundation
import Testing
import Variants

@testable import VariantdCore

/// What only the PostgreSQL queue does, on a real server the suite starts itself (see `PostgresServer`), one
/// fresh database per test: NOTIFY and plain-SQL enqueues (the shared contract is `QueueContract`).
@Suite(
    .postgresServer,
    .enabled(
        if: PostgresServer.isAvailable,
        "PostgreSQL binaries are absent (/usr/lib/postgresql/*/bin); run scripts/setup.sh")
)
struct PostgresQueueTests {
    @Test func notifiesTheResultWhenAJobBecomesFinal() async throws {
        let server = try #require(PostgresServer.current)
        let url = try server.freshDatabase()
        let queue = try await PostgresQueue(url: url)
        let listener = try PostgresConnection(url: url)
        try listener.query("LISTEN \(PostgresSchema.finishedChannel)")
        let id = try await queue.enqueue(try QueueContract.job("notified.jpg", version: "7")).id
        let claimed = try await QueueContract.claimOne(queue)
        _ = try await queue.finish(claimed.lease, with: .success(QueueContract.metadata))
        var received: [PostgresConnection.Notification] = []
        for _ in 0..<20 where received.isEmpty {
            received = try listener.notifications(waiting: .milliseconds(250))
        }
        let notice = try #require(received.first)
        #expect(notice.channel == PostgresSchema.finishedChannel)
        let payload = try #require(
            try JSONSerialization.jsonObject(with: Data(notice.payload.utf8)) as? [String: Any])
        #expect(payload["id"] as? Int == Int(id))
        #expect(payload["state"] as? String == "completed")
        #expect(payload["version"] as? String == "7")
        #expect((payload["job"] as? [String: Any])?["metadata"] != nil)
    }

    @Test func plainSQLEnqueueIsClaimedAndDeduped() async throws {
        let server = try #require(PostgresServer.current)
        let url = try server.freshDatabase()
        let queue = try await PostgresQueue(url: url)
        let storage = try PostgresConnection(url: url)
        let insert = """
            INSERT INTO variantd_jobs (bucket, path, version, source, content_type)
            VALUES ('b', 'plain.jpg', 'v1', 'pictures/gradient.jpg', 'image/jpeg') ON CONFLICT DO NOTHING
            """
        try storage.query("BEGIN; \(insert); \(insert); COMMIT;")
        let claimed = try await QueueContract.claimOne(queue)
        #expect(claimed.job.path == "plain.jpg" && claimed.job.declaredContentType == "image/jpeg")
        #expect(try await queue.jobs(in: nil, limit: 10).count == 1)
    }
}
