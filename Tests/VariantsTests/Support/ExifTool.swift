import Foundation
import VariantdTestSupport

/// Debian's exiftool (`libimage-exiftool-perl`), which writes a source's metadata and reads a rendition's
/// back independently of the code under test.
enum ExifTool {
    static let path = "/usr/bin/exiftool"
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// `bytes` with `arguments` (`-Artist=…`) applied, as exiftool writes them.
    static func writing(_ arguments: [String], into bytes: [UInt8], fileExtension: String) throws -> [UInt8] {
        try withFile(bytes, fileExtension: fileExtension) { file in
            _ = try run(["-q", "-overwrite_original"] + arguments + [file.path])
            return [UInt8](try Data(contentsOf: file))
        }
    }

    /// Every tag exiftool finds, by group and name (`IFD0:Artist`, `XMP-dc:Rights`); `File`, `ExifTool` and
    /// `Composite` groups, which describe the file rather than its metadata, left out.
    static func tags(of bytes: [UInt8], fileExtension: String) throws -> [String: String] {
        try withFile(bytes, fileExtension: fileExtension) { file in
            let output = try run(["-j", "-G1", "-a", file.path])
            guard let list = try JSONSerialization.jsonObject(with: output) as? [[String: Any]],
                let tags = list.first
            else { return [:] }
            var found: [String: String] = [:]
            for (name, value) in tags {
                let group = name.prefix { $0 != ":" }
                if ["File", "ExifTool", "Composite", "System", "SourceFile"].contains(String(group)) {
                    continue
                }
                found[name] = "\(value)"
            }
            return found
        }
    }

    private static func withFile<Result>(
        _ bytes: [UInt8], fileExtension: String, _ body: (URL) throws -> Result
    ) throws -> Result {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("picture." + fileExtension)
        try Data(bytes).write(to: file)
        return try body(file)
    }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "exiftool \(arguments) failed"])
        }
        return output
    }
}
