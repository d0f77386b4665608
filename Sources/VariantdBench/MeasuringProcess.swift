import Foundation
import VariantdCore

/// Runs one measuring process (our worker or an anchor script) to completion and returns what it printed.
/// A pinned process runs under `taskset -c 0`, so it and every thread it starts share one core.
enum MeasuringProcess {
    struct Failure: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        /// The end of what it wrote to stderr.
        var message: String

        var description: String { "\(command) exited with status \(status): \(message)" }
    }

    static func run(
        _ executable: String, _ arguments: [String], pinned: Bool, environment extra: [String: String] = [:]
    ) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pinned ? "/usr/bin/taskset" : executable)
        process.arguments = pinned ? ["-c", "0", executable] + arguments : arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VIPS_WARNING"] = "0"
        // Our libvips, once started here, sets VIPSHOME to its own prefix; the anchors' system libvips would
        // then look there for its loader modules (HEIF, PDF, ImageMagick) and not find them.
        environment["VIPSHOME"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-bench-\(UUID().uuidString)")
        try Data().write(to: errors)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let name = (executable as NSString).lastPathComponent
            let message = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            throw Failure(
                command: ([name] + arguments.prefix(2)).joined(separator: " "),
                status: process.terminationStatus,
                message: String(message.suffix(400)))
        }
        return data
    }

    /// Runs a process that prints one `Measurement`.
    static func measure(
        _ executable: String, _ arguments: [String], pinned: Bool, environment: [String: String] = [:]
    ) throws -> Measurement {
        try WireJSON.decode(
            Measurement.self, from: run(executable, arguments, pinned: pinned, environment: environment))
    }
}
