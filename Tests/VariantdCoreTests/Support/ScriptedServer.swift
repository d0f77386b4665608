import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server of a test's own: a Python script that binds a free port, prints it on its first line,
/// and then answers as the test needs (what no real server can be made to say) and logs what it was sent.
final class ScriptedServer {
    /// The port the script printed.
    let port: String
    private let process: Process

    init(_ script: String, arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        port = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ends the script; call it in a `defer`, since the server must outlive every request of the test.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
    }
}
