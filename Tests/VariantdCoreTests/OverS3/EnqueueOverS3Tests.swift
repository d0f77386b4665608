import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `variantd enqueue --walk s3://…`: a backfill of every object under a prefix of a real SeaweedFS.
@Suite(.seaweedServer, .seaweedInstalled)
struct EnqueueOverS3Tests {
    @Test func walksEveryPageOfAPrefixAndARerunAddsNothing() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let paths = [
            "a b.jpg", "c+d.png", "dir/e.gif", "dir/sub/f.webp", "ünïcødé/ç ø.heic", "z/ÿ.jpg", "z/zz.jpg",
        ]
        for path in paths {
            try client.put(bucket: bucket, key: "in/" + path, bytes: [1, 2, 3], contentType: "image/jpeg")
        }
        try client.put(bucket: bucket, key: "in/dir/", bytes: [], contentType: "application/x-directory")
        try client.put(bucket: bucket, key: "inside-not-under.jpg", bytes: [1], contentType: "image/jpeg")
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("queue.sqlite3").path

        // Pages of two keys: four pages (the folder marker is listed and left out).
        #expect(try client.listPage(bucket: bucket, prefix: "in/", after: nil, pageSize: 2).next != nil)
        let listing = try ObjectListing(
            walk: "s3://\(bucket)/in", environment: server.environment(), pageSize: 2)
        let first = await BackfillRun(
            queue: try await SQLiteQueue(path: file), listing: listing, bucket: "walked", version: "",
            batchSize: 3, showsProgress: false
        ).run()
        #expect(first.listed == paths.count && first.added == paths.count && first.unreadable == 0)
        let jobs = try await SQLiteQueue(path: file).jobs(in: .available, limit: 100)
        #expect(jobs.map(\.path).sorted() == paths.sorted())
        #expect(jobs.allSatisfy { $0.source == $0.path && $0.bucket == "walked" })

        // The command, with the store's own page size: the same objects, all already queued.
        let again = try await VariantdProcess.run(
            ["enqueue", "--queue", "sqlite:" + file, "--bucket", "walked", "--walk", "s3://\(bucket)/in"],
            environment: server.environment())
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try WireJSON.decode(BackfillSummary.self, from: Array(again.stdout.utf8))
        #expect(summary.listed == paths.count && summary.added == 0 && summary.alreadyQueued == paths.count)
        #expect(!again.stderr.contains(SeaweedServer.secretKey))
    }

    /// Refused credentials: 77, as `batch` exits for them.
    @Test func aLocationThatCannotBeListedIsReportedAsARefusal() async throws {
        let server = try #require(SeaweedServer.current)
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrong = server.environment(secret: "not-the-secret-0123456789abcdefghijklm")
        let run = try await VariantdProcess.run(
            [
                "enqueue", "--queue", "sqlite:" + directory.appendingPathComponent("q.sqlite3").path,
                "--bucket",
                "walked", "--walk", "s3://\(try server.freshBucket())/in",
            ], environment: wrong)
        #expect(run.status == ExitStatus.noPermission.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("SignatureDoesNotMatch"), "\(run.stderr)")
        let summary = try WireJSON.decode(BackfillSummary.self, from: Array(run.stdout.utf8))
        #expect(summary.unreadable == 1 && summary.added == 0)
        #expect(!run.stderr.contains("not-the-secret"))
        #expect(run.stderr.contains("s3://"), "the report names the location")
    }
}
