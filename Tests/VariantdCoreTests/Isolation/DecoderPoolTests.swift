import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing
import Variants

@testable import VariantdCore

/// The decoder children: real decodes through the built binary, and what a crash or a hang costs.
@Suite struct DecoderPoolTests {
    private func job(_ path: String) -> DecodeJob {
        DecodeJob(sourcePath: path, request: ObjectRequest(bucket: "b", path: (path as NSString).lastPathComponent))
    }

    /// A stand-in child that behaves badly in the way given, whatever it is asked.
    ///
    /// Written through a close-on-exec descriptor: a process forked meanwhile by a parallel test must not
    /// keep the file open for writing, or executing it fails with "text file busy".
    private func script(_ body: String) throws -> (path: String, directory: URL) {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.appendingPathComponent("child.sh").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let text = Array("#!/bin/sh\n\(body)\n".utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try #require(written == text.count)
        return (path, directory)
    }

    @Test func decodesInAChild() async throws {
        let pool = DecoderPool(.init(executable: TestPaths.variantd, size: 1))
        let path = TestPaths.samples.appendingPathComponent("pictures/orientation-6.jpg").path
        let answer = await pool.process(job(path))
        let metadata = try answer.outcome.get()
        #expect(metadata.width == 200 && metadata.height == 320)
        #expect(metadata.contentType == "image/jpeg")
        #expect((answer.peakResidentKiB ?? 0) > 0)
        await pool.shutdown()
    }

    @Test func aChildThatAbortsIsRetriedOnceThenItsFileIsQuarantined() async throws {
        let (path, directory) = try script("read line; kill -ABRT $$")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = DecoderPool(.init(executable: path, size: 1))
        let file = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

        let first = await pool.process(job(file))
        #expect(first.failure?.reason == .decoderCrash, "\(String(describing: first.failure))")
        #expect(first.failure?.code == .unreadablePicture)
        #expect(await pool.crashes == 2)

        let again = await pool.process(job(file))
        #expect(again.failure?.reason == .quarantined)
        #expect(await pool.crashes == 2)

        let other = await pool.process(job(TestPaths.samples.appendingPathComponent("pictures/gradient.gif").path))
        #expect(other.failure?.reason == .decoderCrash)
        #expect(await pool.crashes == 4)
    }

    @Test func aChildThatHangsIsKilledAtTheDeadline() async throws {
        let (path, directory) = try script("read line; exec sleep 30")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = DecoderPool(.init(executable: path, size: 1, deadline: .milliseconds(300), attemptsPerObject: 1))
        let answer = await pool.process(job("/nonexistent.jpg"))
        #expect(answer.failure?.reason == .decoderTimeout)
    }

    @Test func missingSourceIsNotFound() async throws {
        let pool = DecoderPool(.init(executable: TestPaths.variantd, size: 1))
        let answer = await pool.process(job("/nonexistent/file.jpg"))
        #expect(answer.failure?.code == .notFound)
        await pool.shutdown()
    }
}

extension DecoderPool.Answer {
    var failure: VariantsError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }
}
