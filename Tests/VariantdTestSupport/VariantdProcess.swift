import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The built `variantd` binary run as a separate process, its output captured in files (no pipe can fill
/// up), with every wait bounded.
package final class VariantdProcess {
    package struct Finished {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    private let process = Process()
    private let directory: URL

    /// Starts the binary with the test process's environment, plus `environment` on top; `launcher` (a
    /// program and its arguments, such as `setpriv` dropping to another user) runs it, when given.
    package init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws {
        directory = try TestPaths.temporaryDirectory()
        try Data().write(to: directory.appendingPathComponent("stdout"))
        try Data().write(to: directory.appendingPathComponent("stderr"))
        let command = launcher + [TestPaths.variantd] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout"))
        process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs to the end and returns what it printed.
    package static func run(
        _ arguments: [String], environment: [String: String] = [:], launcher: [String] = [],
        within limit: Duration = .seconds(300)
    ) async throws -> Finished {
        try await VariantdProcess(arguments, environment: environment, launcher: launcher).finish(
            within: limit)
    }

    package func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends `number` as soon as `path` has content, watching from a thread of its own: under a full parallel
    /// test run the cooperative pool can be busy for longer than the whole command takes.
    package func signal(_ number: Int32, onceFileHasContent path: String, within limit: Duration) {
        let processID = process.processIdentifier
        let deadline = ContinuousClock.now + limit
        Thread.detachNewThread {
            while ContinuousClock.now < deadline {
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                if size > 0 { break }
                usleep(5_000)
            }
            kill(processID, number)
        }
    }

    /// What it has printed on its standard output so far, for a test watching a long-running command.
    package var printed: String {
        (try? String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
    }

    /// What it has printed on its standard error so far.
    package var printedErrors: String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }

    /// Waits on the calling thread until its standard output (`errors`: its standard error) holds `text`;
    /// false when it ended or `limit` passed first. For a test that must act while the process runs on
    /// deadlines of its own: an `await` could wait longer than those for a thread of the cooperative pool
    /// other tests share.
    package func waitUntilPrinted(
        _ text: String, errors: Bool = false, within limit: Duration = .seconds(120)
    ) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let running = process.isRunning
            if (errors ? printedErrors : printed).contains(text) { return true }
            guard running else { return false }
            usleep(5_000)
        }
        return false
    }

    /// Waits on the calling thread until the process has taken signal `number` off its pending ones (the
    /// kernel has run its handler, or its default action), or has ended; false when `limit` passed first.
    package func waitUntilDelivered(_ number: Int32, within limit: Duration = .seconds(120)) -> Bool {
        let bit = UInt64(1) << (number - 1)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            guard process.isRunning else { return true }
            if let pending = sharedPendingSignals, pending & bit == 0 { return true }
            usleep(1_000)
        }
        return false
    }

    /// The signals sent to the process that no thread has taken yet (`ShdPnd`), as a mask of bit `number - 1`.
    private var sharedPendingSignals: UInt64? {
        let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = status?.split(separator: "\n").first { $0.hasPrefix("ShdPnd:") }
        return line.flatMap {
            UInt64($0.dropFirst("ShdPnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        }
    }

    /// Waits for the exit (killing the process past the limit) and returns what it printed.
    package func finish(within limit: Duration = .seconds(300)) async throws -> Finished {
        guard try await process.exited(within: limit) else {
            throw TimedOut(arguments: process.arguments ?? [])
        }
        return Finished(
            status: process.terminationStatus,
            stdout: try String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8),
            stderr: try String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8))
    }

    package struct TimedOut: Error {
        package var arguments: [String]
    }
}
