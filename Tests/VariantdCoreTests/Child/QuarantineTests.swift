import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// The quarantine file: a source that killed decoders stays refused across pools and processes until the
/// operator releases it.
@Suite struct QuarantineTests {
    private let picture = TestPaths.samples.appendingPathComponent("pictures/gradient.jpg").path

    @Test func aKillerStaysRefusedAfterARestartUntilReleased() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("state/quarantine.sqlite3").path
        let crasher = directory.appendingPathComponent("child.sh").path
        try "#!/bin/sh\nread line; kill -SEGV $$\n".write(toFile: crasher, atomically: true, encoding: .utf8)
        chmod(crasher, 0o755)

        let first = PipelinePool.overFiles(.init(executable: crasher, size: 1, quarantineFile: file))
        #expect(await first.fulfil(file: picture).error?.reason == .decoderCrash)
        await first.shutdown()

        // A new pool (as after a restart) refuses the file before any child sees it.
        let restarted = PipelinePool.overFiles(
            .init(executable: TestPaths.variantd, size: 1, quarantineFile: file))
        #expect(await restarted.fulfil(file: picture).error?.reason == .quarantined)
        #expect(await restarted.crashes == 0)

        let checksum = try #require(SourceChecksum.of(picture))
        let listed = try await VariantdProcess.run(["quarantine", "list", "--file", file])
        #expect(listed.status == 0)
        let entry = try WireJSON.decode(Quarantine.Entry.self, from: Array(listed.stdout.utf8))
        #expect(entry.checksumSha256 == checksum)
        #expect(entry.failures == 2)
        #expect(entry.reason.hasPrefix("decoder_crash: "), "\(entry.reason)")
        #expect(entry.firstFailure <= entry.lastFailure)

        let released = try await VariantdProcess.run(["quarantine", "release", checksum, "--file", file])
        #expect(released.status == 0)
        let again = try await VariantdProcess.run(["quarantine", "release", checksum, "--file", file])
        #expect(again.status == 1)
        let decoded = try await restarted.fulfil(file: picture).outcome.get()
        #expect(decoded.width == 320)
        await restarted.shutdown()
    }

    /// Deaths with a successful decode between them are the host's, not the file's (a child killed from
    /// outside now and then, across processes sharing the file): the success forgets them, and a good
    /// picture killed twice an hour apart is never quarantined. Two deaths in a row still are.
    @Test func aDecodeBetweenTwoDeathsForgetsTheFirst() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("quarantine.sqlite3").path
        let fault = directory.appendingPathComponent("fault").path
        // Killed from outside while the fault file exists, variantd's own child otherwise.
        let child = directory.appendingPathComponent("child.sh").path
        try
            "#!/bin/sh\nif [ -e '\(fault)' ]; then read line; kill -KILL $$; fi\nexec '\(TestPaths.variantd)' \"$@\"\n"
            .write(toFile: child, atomically: true, encoding: .utf8)
        chmod(child, 0o755)
        // One attempt per call, as the queue's pool makes: each death is counted, none retried at once.
        let pool = PipelinePool.overFiles(
            .init(executable: child, size: 1, attemptsPerObject: 1, quarantineFile: file))
        let checksum = try #require(SourceChecksum.of(picture))
        let quarantine = try Quarantine(file: file)

        #expect(FileManager.default.createFile(atPath: fault, contents: nil))
        let killed = await pool.fulfil(file: picture).error?.reason
        #expect(killed == .decoderCrash)
        #expect(quarantine.failures(of: checksum) == 1)
        try FileManager.default.removeItem(atPath: fault)
        let decoded = await pool.fulfil(file: picture).error
        #expect(decoded == nil)
        #expect(quarantine.failures(of: checksum) == 0, "a decode forgets the death before it")

        // A new pool (the child that decoded is still running in this one) whose children meet the fault.
        await pool.shutdown()
        let faulty = PipelinePool.overFiles(
            .init(executable: child, size: 1, attemptsPerObject: 1, quarantineFile: file))
        #expect(FileManager.default.createFile(atPath: fault, contents: nil))
        var reasons: [VariantsError.Reason?] = []
        for _ in 0..<3 { reasons.append(await faulty.fulfil(file: picture).error?.reason) }
        #expect(reasons == [.decoderCrash, .decoderCrash, .quarantined], "two deaths in a row quarantine")
        await faulty.shutdown()
    }

    /// A fresh install has no quarantine yet: an empty list (nothing printed, exit 0), and nothing to
    /// release (exit 1). Neither creates the file, which root would leave where the daemon's user cannot
    /// write.
    @Test func noQuarantineYetListsNothingAndReleasesNothing() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state").path
        let listed = try await VariantdProcess.run(["quarantine", "list", "--data-dir", state])
        #expect(listed.status == ExitStatus.success.rawValue, "\(listed.stderr)")
        #expect(listed.stdout.isEmpty && listed.stderr.isEmpty)
        let checksum = String(repeating: "a", count: 64)
        let released = try await VariantdProcess.run(["quarantine", "release", checksum, "--data-dir", state])
        #expect(released.status == ExitStatus.failure.rawValue)
        #expect(released.stderr.contains("\(checksum) is not in the quarantine"), "\(released.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    @Test func theOldestFailuresLeaveFirstPastTheCapacity() throws {
        let quarantine = try Quarantine(file: nil, capacity: 5)
        for index in 0..<7 {
            quarantine.recordFailure(
                String(format: "%064x", index), reason: "decoder_crash: test",
                at: Timestamp(milliseconds: Int64(index)))
        }
        let entries = try quarantine.entries()
        #expect(entries.map(\.checksumSha256) == (2..<7).reversed().map { String(format: "%064x", $0) })
        #expect(quarantine.failures(of: String(format: "%064x", 0)) == 0)
        #expect(quarantine.failures(of: String(format: "%064x", 6)) == 1)
    }
}
