import Foundation

/// Another program's render of a file, for comparing a rendition with: `pdftoppm`, `rsvg-convert`, Debian's
/// libvips CLI. The bytes are saved into a temporary folder and the PNG the program writes there is read back.
package enum ReferenceProgram {
    /// Whether `program` is installed (tests that need it are skipped without it).
    package static func has(_ program: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: program)
    }

    /// Runs `program` with `arguments(input, output)` on `bytes` saved as `input` (named `name`), and returns
    /// the PNG it wrote to `output`.
    package static func png(
        of bytes: [UInt8], named name: String, program: String,
        arguments: (_ input: String, _ output: String) -> [String]
    ) throws -> [UInt8] {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name).path
        let output = folder.appendingPathComponent("reference.png").path
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments(input, output)
        // Debian's libvips CLI must not look for loader modules under our libvips' prefix.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "VIPSHOME" }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(program: program, status: process.terminationStatus)
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    package struct Failure: Error {
        package var program: String
        package var status: Int32
    }
}
