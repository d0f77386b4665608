import Foundation
import Testing
import Variants

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// Sealed decoder children: the kernel holds the filter, and a child that reaches for a file or the network
/// after sealing dies by SIGSYS while its parent answers the job.
@Suite struct ChildConfinementTests {
    private func job(_ name: String) -> DecodeJob {
        DecodeJob(
            sourcePath: TestPaths.samples.appendingPathComponent("pictures/\(name)").path,
            request: ObjectRequest(bucket: "b", path: name))
    }

    @Test func aSealedChildRunsUnderTheKernelsFilter() throws {
        let child = try ChildProcess(executable: TestPaths.variantd, arguments: ["decoder-child", "--confined"])
        defer { child.terminate() }
        // The child reads its first line only once sealed; an invalid job still gets its typed answer.
        let reply = try child.exchange(Array("{}".utf8), deadline: .now + .seconds(60))
        let answer = try WireJSON.decode(DecodeAnswer.self, from: reply)
        #expect(answer.error?.code == .invalidRequest)
        let status = try String(contentsOfFile: "/proc/\(child.processID)/status", encoding: .utf8)
        #expect(status.contains("NoNewPrivs:\t1"))
        #expect(status.contains("Seccomp:\t2"), "seccomp mode 2 is a filter")
    }

    @Test(arguments: [ConfinementViolation.open, .socket])
    func aSealedChildThatReachesOutIsKilledAndItsJobAnswered(_ violation: ConfinementViolation) async throws {
        var configuration = DecoderPool.Configuration(
            executable: TestPaths.variantd, size: 1, attemptsPerObject: 1, confined: true)
        configuration.violation = violation
        let sealed = DecoderPool(configuration)
        let answer = await sealed.process(job("gradient.jpg"))
        #expect(answer.failure?.reason == .decoderCrash, "\(String(describing: answer.failure))")
        #expect(answer.failure?.message.contains("signal \(SIGSYS)") == true)
        #expect(await sealed.crashes == 1)

        // The parent is unharmed: the next child of an ordinary pool in this process decodes.
        let plain = DecoderPool(.init(executable: TestPaths.variantd, size: 1))
        let decoded = try await plain.process(job("orientation-6.jpg")).outcome.get()
        #expect(decoded.width == 200 && decoded.height == 320)
        await plain.shutdown()
    }

    @Test func aKernelThatRefusesConfinementIsAnInternalErrorNotACrash() async throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("child.sh").path
        try "#!/bin/sh\nexit 78\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        let pool = DecoderPool(.init(executable: path, size: 1, confined: true))
        let answer = await pool.process(job("gradient.jpg"))
        #expect(answer.failure?.code == .internalError)
        #expect(await pool.crashes == 0)
    }
}
