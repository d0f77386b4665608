import Foundation

@testable import Variants

/// Another program's render of a file, for comparing a rendition with: `pdftoppm`, `rsvg-convert`, Debian's
/// libvips CLI. Each writes a PNG into a temporary folder, read back as an image.
enum ReferenceRender {
    /// Whether `program` is installed (tests that need it are skipped without it).
    static func has(_ program: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: program)
    }

    /// Runs `program` with `arguments(input, output)` on `bytes` saved as `input`, and reads the PNG it wrote to
    /// `output`.
    static func png(
        of bytes: [UInt8], named name: String, program: String,
        arguments: (_ input: String, _ output: String) -> [String]
    ) throws -> VipsImage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-reference-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
            throw ReferenceFailure(program: program, status: process.terminationStatus)
        }
        return try VipsImage.load(.png, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
            .materialized()
    }

    struct ReferenceFailure: Error {
        var program: String
        var status: Int32
    }
}
