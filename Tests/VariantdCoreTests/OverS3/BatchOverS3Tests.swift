import Foundation
import Synchronization
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// `variantd batch` with its sources and renditions in a real SeaweedFS.
@Suite(.seaweedServer, .seaweedInstalled)
struct BatchOverS3Tests {
    private static let declaration = TestPaths.samples.appendingPathComponent("buckets/post-images.json").path

    @Test func walksAPrefixStoresEveryRenditionAndResumes() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let pictures = TestPaths.samples.appendingPathComponent("pictures")
        var sources: [String: [UInt8]] = [:]
        // The pictures at the top of the folder, not those in its subfolders.
        for name in try FileManager.default.contentsOfDirectory(atPath: pictures.path)
        where (try? pictures.appendingPathComponent(name).resourceValues(forKeys: [.isRegularFileKey]))?
            .isRegularFile == true
        {
            sources["pictures/\(name)"] = [UInt8](try Data(contentsOf: pictures.appendingPathComponent(name)))
        }
        sources["odd names/a b+c é.jpg"] = sources["pictures/gradient.jpg"]
        for (path, bytes) in sources {
            try client.put(
                bucket: bucket, key: "in/\(path)", bytes: bytes, contentType: "application/octet-stream")
        }
        try client.put(bucket: bucket, key: "inside-not-under.jpg", bytes: [1], contentType: "image/jpeg")
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "batch", "--bucket", Self.declaration, "--out", folder.path + "/out", "--renditions",
            "s3://\(bucket)/renditions", "--quiet", "--json", "-j", "2", "s3://\(bucket)/in",
        ]
        let first = try await VariantdProcess.run(arguments, environment: server.environment())
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        #expect(summary?["processed"] as? Int == sources.count)

        let manifest = try String(contentsOfFile: folder.path + "/out/manifest.jsonl", encoding: .utf8)
        let lines = try manifest.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Set(lines.compactMap { $0["path"] as? String }) == Set(sources.keys))
        var checked = 0
        for line in lines {
            for case let rendition as [String: Any] in (line["renditions"] as? [String: Any] ?? [:]).values {
                let key = try #require(rendition["key"] as? String)
                let size = try client.size(bucket: bucket, key: "renditions/\(key)")
                #expect(size == rendition["size"] as? Int, "\(key)")
                checked += 1
            }
        }
        #expect(checked >= 15)
        let good = try #require(lines.first { $0["path"] as? String == "odd names/a b+c é.jpg" })
        #expect(good["width"] as? Int == 320)

        let second = try await VariantdProcess.run(arguments, environment: server.environment())
        #expect(second.status == 0, "\(second.stderr)")
        let again = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any]
        #expect(again?["skipped"] as? Int == sources.count)
        #expect(again?["processed"] as? Int == 0)
    }

    /// An object is downloaded once, whether it is new to a resumed run or cannot be decoded: hashed where
    /// it is read, and handed to the decoder with its checksum.
    @Test func eachObjectIsDownloadedOnce() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let pictures = TestPaths.samples.appendingPathComponent("pictures")
        for name in ["gradient.jpg", "truncated.jpg"] {
            try client.put(
                bucket: bucket, key: "in/\(name)",
                bytes: [UInt8](try Data(contentsOf: pictures.appendingPathComponent(name))),
                contentType: "application/octet-stream")
        }
        let location = try S3Location("s3://\(bucket)/in")
        let objects = CountingObjects(S3ObjectStore(client: client, location: location))
        let declaration = try BucketDeclaration(
            parsing: try Data(contentsOf: URL(fileURLWithPath: Self.declaration)))
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = PipelinePool(
            .init(executable: TestPaths.variantd, size: 1), objects: objects, renditions: nil)
        let resumed = [
            ManifestKey(path: "elsewhere", sourceChecksum: "0", declaration: ""): ResultCategory.ok
        ]
        for (index, done) in [[:], resumed].enumerated() {
            let (manifest, _) = try ManifestWriter.open(folder.path + "/manifest-\(index).jsonl")
            let run = BatchRun(
                source: .bucket(client, location, excluded: []), objects: objects, bucket: declaration,
                fingerprint: try DeclarationFingerprint.of(declaration), jobs: 1, pool: pool, done: done,
                manifest: manifest, progress: ProgressReporter(style: .none), interrupted: { false })
            try await run.run()
            #expect(objects.takeReads() == ["gradient.jpg": 1, "truncated.jpg": 1], "run \(index)")
        }
        await pool.shutdown()
    }

    /// An object over the 256 MiB read limit is hashed as it streams: its 413 line carries its checksum, so a
    /// re-run skips it instead of appending another line for it each time. Refused unread for decoding, it
    /// counts no bytes.
    @Test func anObjectOverTheReadLimitIsRecordedOnceWithItsChecksum() async throws {
        let server = try #require(SeaweedServer.current)
        let client = try server.client()
        let bucket = try server.freshBucket()
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Sparse: 257 MiB of zeros that take no room on the disk.
        let source = folder.appendingPathComponent("large.bin").path
        #expect(FileManager.default.createFile(atPath: source, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
        try handle.truncate(atOffset: UInt64(Limits.default.maxInputBytes) + (1 << 20))
        try handle.close()
        try client.put(bucket: bucket, key: "in/large.jpg", file: source, contentType: "image/jpeg")
        let arguments = [
            "batch", "--bucket", Self.declaration, "--out", folder.path + "/out", "--quiet", "--json",
            "s3://\(bucket)/in",
        ]
        let first = try await VariantdProcess.run(arguments, environment: server.environment())
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        #expect(summary?["bytes"] as? Int == 0)
        let again = try await VariantdProcess.run(arguments, environment: server.environment())
        #expect(again.status == 0, "\(again.stderr)")
        let resumed = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(resumed?["skipped"] as? Int == 1)
        #expect(!again.stderr.contains("not records"), "\(again.stderr)")
        let lines = try String(contentsOfFile: folder.path + "/out/manifest.jsonl", encoding: .utf8)
            .split(separator: "\n").map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        #expect(lines.count == 1)
        #expect(lines.first?["error"] as? String == "payload_too_large")
        #expect(lines.first?["checksumSha256"] as? String == SourceChecksum.of(source))
    }

    /// Refused credentials are a refusal (77) without `--strict`: the run did not cover the prefix. The
    /// manifest says the listing stopped before its first key.
    @Test func aWrongSecretExitsNoPermissionAndTheManifestSaysWhereTheListingStopped() async throws {
        let server = try #require(SeaweedServer.current)
        let bucket = try server.freshBucket()
        try server.client().put(
            bucket: bucket, key: "in/a.jpg",
            bytes: [UInt8](
                try Data(contentsOf: TestPaths.samples.appendingPathComponent("pictures/gradient.jpg"))),
            contentType: "image/jpeg")
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = "a-wrong-secret-key-that-is-long-enough"
        let run = try await VariantdProcess.run(
            [
                "batch", "--bucket", Self.declaration, "--out", folder.path, "--quiet", "s3://\(bucket)/in",
            ],
            environment: server.environment(secret: secret))
        #expect(run.status == ExitStatus.noPermission.rawValue, "\(run.stderr)")
        #expect(run.stderr.contains("s3://\(bucket)/in cannot be listed at all"), "\(run.stderr)")
        #expect(run.stderr.contains("SignatureDoesNotMatch"))
        let manifest = try String(contentsOfFile: folder.path + "/manifest.jsonl", encoding: .utf8)
        let line = try #require(
            JSONSerialization.jsonObject(with: Data(manifest.utf8)) as? [String: Any], "\(manifest)")
        #expect(line["listing"] as? String == "s3://\(bucket)/in")
        #expect(line["listed"] as? Int == 0 && line["stoppedAfter"] == nil)
        #expect((line["message"] as? String)?.contains("SignatureDoesNotMatch") == true)
        #expect(!run.stderr.contains(secret) && !run.stdout.contains(secret) && !manifest.contains(secret))
    }
}

/// An object store that counts the reads of each key.
private final class CountingObjects: ObjectStore {
    private let objects: any ObjectStore
    private let reads = Mutex<[String: Int]>([:])

    init(_ objects: any ObjectStore) {
        self.objects = objects
    }

    func check(_ key: String) throws(VariantsError) {
        try objects.check(key)
    }

    func read(_ key: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
        reads.withLock { $0[key, default: 0] += 1 }
        return try objects.read(key, maxBytes: maxBytes)
    }

    /// The reads counted since the last call.
    func takeReads() -> [String: Int] {
        reads.withLock { reads in
            defer { reads = [:] }
            return reads
        }
    }
}
