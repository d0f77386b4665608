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
        FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8))
    }
}

/// A PNG written by a rasteriser: its size from the IHDR chunk, and whether it shows anything, from the
/// standard deviation of its pixels (`vips deviate`, libvips-tools, installed by scripts/setup.sh).
struct RasterCheck {
    let path: String
    let width: Int
    let height: Int

    init(_ path: String) throws {
        self.path = path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A][...],
            bytes[12..<16] == Array("IHDR".utf8)[...]
        else { throw CocoaError(.fileReadCorruptFile) }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        width = word(16)
        height = word(20)
    }

    /// A blank (one-colour) picture has a deviation of 0; a chart's bars and text give well over 10.
    func isNotBlank() throws -> Bool {
        guard let vips = Tools.find("vips") else { throw CocoaError(.executableNotLoadable) }
        let result = try Tools.output(vips, ["deviate", path])
        return (Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 10
    }
}
