import Foundation
import Testing

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// The test support's SeaweedFS: a store that does not come back must say why, or an outage test's failure
/// reads as SeaweedFS's fault.
@Suite(.seaweedServer, .seaweedInstalled)
struct SeaweedServerTests {
    /// Another run's clean-up once killed a restarting server; the error showed 600 characters of log, cut
    /// mid-line, of the "Not current leader" every start logs, and was read as a failed election.
    @Test func aServerKilledFromOutsideWhileStartingIsSaidToBe() throws {
        let server = try #require(SeaweedServer.current)
        server.kill()
        let argument = Data("-dir=\(server.directory)/data".utf8)
        // A thread of its own, not a task: the cooperative pool is busy with the other suites' blocking calls.
        let killed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                    guard let id = Int32(pid),
                        let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                        line.split(separator: 0).contains(argument)
                    else { continue }
                    kill(id, SIGKILL)
                    killed.signal()
                    return
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        let error = try #require(throws: S3Error.self) { try server.start() }
        #expect(killed.wait(timeout: .now()) == .success)
        #expect(error.description.contains("killed by signal 9, which these tests did not send"), "\(error)")
        let log = try String(contentsOfFile: "\(server.directory)/weed.log", encoding: .utf8)
        let lastLines = log.split(separator: "\n").suffix(3).joined(separator: "\n")
        #expect(error.description.hasSuffix(lastLines), "\(error)")
    }
}
