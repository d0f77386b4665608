import Foundation
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// `variantd enqueue --from` / `--walk` and `variantd jobs` as processes on a SQLite queue: batched,
/// deduplicated, idempotent on a second run, with the summary and exit status saying what happened.
@Suite struct EnqueueCommandTests {
    private struct Summary: Decodable {
        var listed: Int
        var added: Int
        var alreadyQueued: Int
        var refused: Int
        var unreadable: Int
    }

    private func summary(_ finished: VariantdProcess.Finished) throws -> Summary {
        try JSONDecoder().decode(Summary.self, from: Data(finished.stdout.utf8))
    }

    @Test func enqueuesAListOnceAndListsItPageByPage() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = "sqlite:" + directory.appendingPathComponent("queue.sqlite3").path
        let list = directory.appendingPathComponent("objects.txt").path
        // 3,000 objects, one listed twice, CRLF endings and a blank line in between.
        let lines = (0..<3000).map { "photos/\($0 / 100)/object-\($0).jpg" } + ["photos/0/object-7.jpg"]
        try (lines.joined(separator: "\r\n") + "\n\n").write(toFile: list, atomically: true, encoding: .utf8)
        let arguments = [
            "enqueue", "--queue", queue, "--bucket", "backfill", "--from", list, "--batch", "700",
        ]

        let first = try await VariantdProcess.run(arguments)
        #expect(first.status == 0)
        let added = try summary(first)
        #expect(added.listed == 3001 && added.added == 3000 && added.alreadyQueued == 1 && added.refused == 0)

        let second = try await VariantdProcess.run(arguments)
        #expect(second.status == 0)
        let again = try summary(second)
        #expect(again.added == 0 && again.alreadyQueued == 3001)

        let listed = try await VariantdProcess.run(["jobs", "--queue", queue, "--bucket", "backfill"])
        let jobs = listed.stdout.split(separator: "\n")
        #expect(listed.status == 0 && jobs.count == 3000)
        let limited = try await VariantdProcess.run([
            "jobs", "--queue", queue, "--state", "available", "--limit", "1234",
        ])
        #expect(limited.stdout.split(separator: "\n").count == 1234)
        let other = try await VariantdProcess.run(["jobs", "--queue", queue, "--bucket", "other"])
        #expect(other.status == 0 && other.stdout.isEmpty)
    }

    @Test func walksAFolderAndRefusesPathsNoWorkerCouldRead() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = "sqlite:" + directory.appendingPathComponent("queue.sqlite3").path
        let store = directory.appendingPathComponent("store")
        for path in ["a.jpg", "nested/b.png", "nested/deeper/c.gif"] {
            let url = store.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: url)
        }
        let walked = try await VariantdProcess.run([
            "enqueue", "--queue", queue, "--bucket", "walked", "--walk", store.path, "--version", "v2",
        ])
        #expect(walked.status == 0)
        #expect(try summary(walked).added == 3)
        let jobs = try await SQLiteQueue(path: String(queue.dropFirst("sqlite:".count)))
            .jobs(in: .available, limit: 10)
        #expect(jobs.map(\.path) == ["a.jpg", "nested/b.png", "nested/deeper/c.gif"])
        #expect(jobs.allSatisfy { $0.version == "v2" && $0.source == $0.path })

        let list = directory.appendingPathComponent("bad.txt").path
        try "ok.jpg\n../escape.jpg\n/absolute.jpg\n".write(toFile: list, atomically: true, encoding: .utf8)
        let refused = try await VariantdProcess.run([
            "enqueue", "--queue", queue, "--bucket", "walked", "--from", list,
        ])
        #expect(refused.status == ExitStatus.failure.rawValue)
        let counts = try summary(refused)
        #expect(counts.added == 1 && counts.refused == 2)
        #expect(refused.stderr.contains("escape.jpg"))
    }

    /// Listing reads the queue: a mistyped path (or root listing a service's queue before the worker made it,
    /// leaving a file the worker's user cannot write) must not be created and shown as an empty queue.
    @Test func listsNoQueueThatIsNotThere() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state/queue.sqlite3").path
        let listed = try await VariantdProcess.run(["jobs", "--queue", "sqlite:" + file])
        #expect(listed.status == ExitStatus.noInput.rawValue)
        #expect(listed.stderr.contains(file))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("state").path))
    }

    /// No declaration can hold a name out of the bucket-name rule, so a worker would render its jobs with no
    /// variants and no error: `POST /v1/jobs?async=1` refuses such a name, and `enqueue` must too, before it
    /// opens the queue.
    @Test(arguments: ["Post-Images", "post/images", "", "-images", "a..b"])
    func refusesABucketNameOutOfTheRule(bucket: String) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("queue.sqlite3").path
        let list = directory.appendingPathComponent("objects.txt").path
        try "a.jpg\n".write(toFile: list, atomically: true, encoding: .utf8)
        for objects in [["--path", "a.jpg"], ["--from", list]] {
            let refused = try await VariantdProcess.run(
                ["enqueue", "--queue", "sqlite:" + file, "--bucket", bucket] + objects)
            #expect(refused.status == ExitStatus.usage.rawValue, "'\(bucket)' \(objects[0])")
            #expect(refused.stderr.contains("'--bucket' takes a bucket name"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    /// A well-formed name is queued whether or not a declaration holds it: the workers own the declarations
    /// (`work --buckets`, reloaded as they change), and `enqueue` never reads them.
    @Test func queuesAWellFormedNameWithoutReadingDeclarations() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("queue.sqlite3").path
        let queued = try await VariantdProcess.run([
            "enqueue", "--queue", "sqlite:" + file, "--bucket", "post-images.v2_x", "--path", "a.jpg",
        ])
        #expect(queued.status == 0)
        let jobs = try await SQLiteQueue(path: file).jobs(in: .available, limit: 10)
        #expect(jobs.map(\.bucket) == ["post-images.v2_x"])
    }

    /// An object path out of the daemon's rule (1…1024 bytes, no control characters) is refused by `enqueue` as
    /// `POST /v1/jobs` refuses it: a worker would otherwise carry it into the completion metadata, the rendition
    /// keys and the callback, where no path from the daemon can go.
    @Test func refusesPathsOutOfTheDaemonsRule() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = "sqlite:" + directory.appendingPathComponent("queue.sqlite3").path
        let one = try await VariantdProcess.run([
            "enqueue", "--queue", queue, "--bucket", "b", "--path", "tab\there.jpg",
        ])
        #expect(one.status == ExitStatus.usage.rawValue)
        #expect(one.stderr.contains("without control characters"), "\(one.stderr)")

        let list = directory.appendingPathComponent("objects.txt").path
        let long = String(repeating: "x", count: 1_021) + ".jpg"
        try "ok.jpg\nbell\u{7}.jpg\n\(long)\n".write(toFile: list, atomically: true, encoding: .utf8)
        let many = try await VariantdProcess.run([
            "enqueue", "--queue", queue, "--bucket", "b", "--from", list,
        ])
        #expect(many.status == ExitStatus.failure.rawValue)
        let counts = try summary(many)
        #expect(counts.added == 1 && counts.refused == 2)
        let jobs = try await SQLiteQueue(path: String(queue.dropFirst("sqlite:".count)))
            .jobs(in: .available, limit: 10)
        #expect(jobs.map(\.path) == ["ok.jpg"])
    }

    @Test func refusesConflictingSources() async throws {
        let usage = try await VariantdProcess.run([
            "enqueue", "--bucket", "b", "--path", "p.jpg", "--from", "/dev/null",
        ])
        #expect(usage.status == ExitStatus.usage.rawValue)
        let missing = try await VariantdProcess.run([
            "enqueue", "--bucket", "b", "--walk", "/nonexistent-dir",
        ])
        #expect(missing.status == ExitStatus.usage.rawValue)
    }
}
