import Foundation

/// Command-line tools the chart tests call: found on PATH, run to the end with their output discarded.
enum Tools {
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        try output(executable, arguments).status
    }

    /// Runs and returns the exit status and stdout (small outputs only: it is read after the exit).
    static func output(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stdout: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: out.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: out.path])
        }
        defer { try? FileManager.default.removeItem(at: out) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8))
    }
}
