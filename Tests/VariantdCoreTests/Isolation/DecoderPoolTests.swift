import Foundation
import Testing
import Variants

@testable import VariantdCore

/// The decoder children: real decodes through the built binary, and what a crash or a hang costs.
@Suite struct DecoderPoolTests {
    private func job(_ path: String) -> DecodeJob {
        DecodeJob(sourcePath: path, request: ObjectRequest(bucket: "b", path: (path as NSString).lastPathComponent))
    }

    /// A stand-in child that behaves badly in the way given, whatever it is asked.
    private func script(_ body: String) throws -> (path: String, directory: URL) {
        let directory = try TestPaths.temporaryDirectory()
        let url = directory.appendingPathComponent("child.sh")
        try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return (url.path, directory)
    }

    @Test func decodesInAChild() async throws {
        let pool = DecoderPool(.init(executable: TestPaths.variantd, size: 1))
        let path = TestPaths.samples.appendingPathComponent("pictures/orientation-6.jpg").path
        let metadata = try await pool.process(job(path)).outcome.get()
        #expect(metadata.width == 200 && metadata.height == 320)
        #expect(metadata.contentType == "image/jpeg")
        await pool.shutdown()
    }

    @Test func aChildThatAbortsCostsOneAnswer() async throws {
        let (path, directory) = try script("read line; kill -ABRT $$")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = DecoderPool(.init(executable: path, size: 1))
        for _ in 0..<2 {
            let answer = await pool.process(job("/nonexistent.heic"))
            guard case .failure(let error) = answer.outcome else {
                Issue.record("a crashing child produced metadata")
                return
            }
            #expect(error.code == .unreadablePicture)
            #expect(error.reason == .decoderCrash)
        }
        #expect(await pool.crashes == 2)
    }

    @Test func aChildThatHangsIsKilledAtTheDeadline() async throws {
        let (path, directory) = try script("read line; sleep 30")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = DecoderPool(.init(executable: path, size: 1, deadline: .milliseconds(300)))
        let answer = await pool.process(job("/nonexistent.jpg"))
        guard case .failure(let error) = answer.outcome else {
            Issue.record("a hanging child produced metadata")
            return
        }
        #expect(error.reason == .decoderTimeout)
    }

    @Test func missingSourceIsNotFound() async throws {
        let pool = DecoderPool(.init(executable: TestPaths.variantd, size: 1))
        let answer = await pool.process(job("/nonexistent/file.jpg"))
        guard case .failure(let error) = answer.outcome else {
            Issue.record("a missing file produced metadata")
            return
        }
        #expect(error.code == .notFound)
        await pool.shutdown()
    }
}
