import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One `variantd work --listen` process kept running as systemd would keep a unit: started again after it is
/// killed, stopped, or exits by itself. Each run logs into a folder of its own.
final class WorkerSupervisor: @unchecked Sendable {
    private let arguments: [String]
    private let directory: URL
    private let lock = NSLock()
    private var process: DaemonProcess
    private var runs = 1
    private var exits: [String] = []

    init(_ arguments: [String], directory: URL) throws {
        self.arguments = arguments
        self.directory = directory
        process = try Self.start(arguments, in: directory, run: 1)
    }

    var current: DaemonProcess { lock.withLock { process } }

    /// How each run before the current one ended: `signal 9`, `exit 0` …
    var endings: [String] { lock.withLock { exits } }

    /// Ends the current run with `signal` and starts the next; a `SIGTERM` is waited for (the jobs in flight
    /// written back), a `SIGKILL` is not.
    func restart(with signal: Int32) throws {
        try lock.withLock {
            process.signal(signal)
            let status = process.waitForExit(timeout: .seconds(60))
            exits.append(status.map { "exit \($0)" } ?? "no exit within 60 s")
            process.kill()
            runs += 1
            process = try Self.start(arguments, in: directory, run: runs)
        }
    }

    /// Starts a run again when the last one ended by itself; true when it did.
    func reviveIfEnded() throws -> Bool {
        try lock.withLock {
            guard !process.process.isRunning else { return false }
            exits.append("ended by itself, exit \(process.process.terminationStatus)")
            runs += 1
            process = try Self.start(arguments, in: directory, run: runs)
            return true
        }
    }

    func stop() {
        lock.withLock {
            process.signal(SIGTERM)
            _ = process.waitForExit(timeout: .seconds(60))
            process.kill()
        }
    }

    private static func start(_ arguments: [String], in directory: URL, run: Int) throws -> DaemonProcess {
        let folder = directory.appendingPathComponent("work-\(run)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try DaemonProcess(arguments, directory: folder, command: "work")
    }
}
