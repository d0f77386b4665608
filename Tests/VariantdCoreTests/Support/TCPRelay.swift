import Foundation
import VariantdTestSupport

@testable import VariantdCore

#if canImport(Glibc)
    import Glibc
#endif

/// One loopback address in front of a server that can be moved to another, as a virtual IP or a proxy of a
/// fail-over is: `socat` (Debian's `socat`; `scripts/setup.sh` installs it) listening on a free port,
/// forwarding each connection to its target. A switch cuts every connection through it, as a fail-over
/// does, and listens again on the same port towards the new target.
final class TCPRelay {
    static let executable = "/usr/bin/socat"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: Int
    private let log: String
    private var process: SpawnedProcess

    init(to target: Int) async throws {
        port = try LoopbackPorts.free(1)[0]
        log =
            FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).log")
            .path
        process = try Self.start(port: port, target: target, log: log)
        try await waitUntilListening()
    }

    /// Cuts every connection through the relay and forwards the connections made from then on to `target`.
    func switchTarget(to target: Int) async throws {
        cut()
        process = try Self.start(port: port, target: target, log: log)
        try await waitUntilListening()
    }

    /// Ends the relay, every connection through it, and its log.
    func stop() {
        cut()
        try? FileManager.default.removeItem(atPath: log)
    }

    /// Ends `socat` and every connection through it: it forks a process per connection, all in the process
    /// group `SpawnedProcess` gives it.
    private func cut() {
        if process.isRunning { kill(-process.processID, SIGKILL) }
        _ = process.waitForExit()
    }

    private static func start(port: Int, target: Int, log: String) throws -> SpawnedProcess {
        try SpawnedProcess.logging(
            executable,
            arguments: [
                "TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork", "TCP:127.0.0.1:\(target)",
            ], to: log, appending: true)
    }

    /// Waits until a connection to the port is accepted, so no client meets a refusal at the start.
    private func waitUntilListening() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !LoopbackPorts.accepts(port) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw QueueError("socat does not listen on \(port): \(said)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
