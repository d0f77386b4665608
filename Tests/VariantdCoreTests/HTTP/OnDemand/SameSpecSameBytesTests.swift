import Foundation
import Testing
import VariantdTestSupport
import Variants

/// One spec of one picture gives one rendition, whichever caller asks: the batch, a job, the queue's
/// worker, `GET /v1/render` (by the variant's name or by its options) and `variantd render`. A declared
/// variant made alone is made with the bucket's other variants shaping its decode and resize ladder, as a
/// job makes it, so the key a rendition is stored under never holds bytes that depend on who made it first.
@Suite struct SameSpecSameBytesTests {
    /// `small` resamples from `large`'s reduction in a job; made alone from its own decode it would differ.
    private static let declaration = """
        {"name": "pics", "public": true, "variants": {
          "large": {"width": 300, "format": "webp"},
          "small": {"width": 100, "format": "webp"}}}
        """

    @Test(arguments: ["gradient.jpg", "orientation-6.jpg"])
    func everyCallerMakesTheSameBytes(picture: String) async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = FileManager.default
        let root = directory.appendingPathComponent("store")
        let buckets = directory.appendingPathComponent("buckets")
        try files.createDirectory(
            at: root.appendingPathComponent("pics/2026"), withIntermediateDirectories: true)
        try files.createDirectory(at: buckets, withIntermediateDirectories: true)
        let source = root.appendingPathComponent("pics/2026/" + picture)
        try files.copyItem(at: TestPaths.samples.appendingPathComponent("pictures/" + picture), to: source)
        let declarationFile = buckets.appendingPathComponent("pics.json")
        try Data(Self.declaration.utf8).write(to: declarationFile)
        let checksum = SHA256.hex(Array(try Data(contentsOf: source)))
        func stored(in folder: URL) throws -> [UInt8] {
            let directory = folder.appendingPathComponent(RenditionKey.directory(ofSource: checksum))
            let names = try files.contentsOfDirectory(atPath: directory.path)
            let small = try RenditionKey.specKey(of: #require(Self.small))
            let name = try #require(names.first { $0.hasPrefix(small + ".") }, "\(names)")
            return Array(try Data(contentsOf: directory.appendingPathComponent(name)))
        }

        let batchOut = directory.appendingPathComponent("batch")
        let batch = try await VariantdProcess.run([
            "batch", "--bucket", declarationFile.path, "--out", batchOut.path, "--quiet",
            root.appendingPathComponent("pics").path,
        ])
        #expect(batch.status == 0, "\(batch.stderr)")
        let made = try stored(in: batchOut.appendingPathComponent("renditions"))
        #expect(!made.isEmpty)

        let rendered = directory.appendingPathComponent("render.webp")
        let render = try await VariantdProcess.run([
            "render", source.path, "--width", "100", "--format", "webp", "--bucket", declarationFile.path,
            "-o", rendered.path,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(Array(try Data(contentsOf: rendered)) == made, "variantd render")

        for query in ["variant=small", "width=100&format=webp"] {
            let out = directory.appendingPathComponent("serve-" + query.prefix(5))
            let daemon = try DaemonProcess(
                [
                    "--listen", "127.0.0.1:0", "--root", root.path, "--out", out.path, "--buckets",
                    buckets.path,
                ],
                directory: directory)
            let answer = try daemon.render("/v1/render/pics/2026/\(picture)?\(query)")
            #expect(answer.status == 200 && answer.body == made, "GET /v1/render?\(query)")
            daemon.kill()
        }

        let jobOut = directory.appendingPathComponent("job")
        let daemon = try DaemonProcess(
            [
                "--listen", "127.0.0.1:0", "--root", root.path, "--out", jobOut.path, "--buckets",
                buckets.path,
            ],
            directory: directory)
        let job = try daemon.job([
            "id": "job-1", "bucket": "pics", "path": "2026/" + picture, "source": "pics/2026/" + picture,
        ])
        #expect(job.status == 200, "\(job.text)")
        #expect(try stored(in: jobOut) == made, "POST /v1/jobs")
        daemon.kill()

        let queue = directory.appendingPathComponent("queue.sqlite3").path
        let workOut = directory.appendingPathComponent("work")
        let enqueue = try await VariantdProcess.run([
            "enqueue", "--queue", "sqlite:" + queue, "--bucket", "pics", "--path", "2026/" + picture,
            "--source", "pics/2026/" + picture,
        ])
        #expect(enqueue.status == 0, "\(enqueue.stderr)")
        let work = try await VariantdProcess.run([
            "work", "--queue", "sqlite:" + queue, "--root", root.path, "--buckets", buckets.path, "--out",
            workOut.path, "--quarantine", directory.appendingPathComponent("quarantine.sqlite3").path,
            "--workers", "1", "--until-idle",
        ])
        #expect(work.status == 0, "\(work.stderr)")
        #expect(try stored(in: workOut) == made, "variantd work")
    }

    private static var small: VariantSpec? {
        try? BucketDeclaration(parsing: Array(declaration.utf8)).variant(named: "small")
    }
}
