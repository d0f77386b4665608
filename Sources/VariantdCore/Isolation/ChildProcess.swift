import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A running decoder child and the pipes to it: the only file that talks to the process layer (spawn,
/// poll, kill), so the rest of the isolation code works with lines of text and typed outcomes.
final class ChildProcess {
    /// How a request to the child ended when no line came back.
    enum Failure: Error {
        /// The child died: by a signal (an abort or a crash inside a C library), or by exiting.
        case died(signal: Int32?, status: Int32?)
        /// No answer before the deadline; the child has been killed.
        case timedOut
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Writing to a child that has died (or exited before reading, as one that cannot confine itself does)
    /// must be an error on the write, not SIGPIPE killing every command that runs children.
    private static let ignoreBrokenPipes: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    init(executable: String, arguments: [String]) throws {
        Self.ignoreBrokenPipes
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VIPS_WARNING"] = "0"
        // One malloc arena: glibc shrinks a thread's extra arena by first reading /proc/sys/vm/
        // overcommit_memory, a file a sealed child may not open; one arena also returns memory more fully.
        environment["MALLOC_ARENA_MAX"] = "1"
        // A fixed time zone for C libraries' log lines: read once before sealing, never looked up again.
        environment["TZ"] = "UTC0"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    deinit {
        terminate()
    }

    var isRunning: Bool { process.isRunning }

    var processID: Int32 { process.processIdentifier }

    /// Sends one line and waits for one line back, until the deadline.
    func exchange(_ line: [UInt8], deadline: ContinuousClock.Instant) throws(Failure) -> [UInt8] {
        do {
            try input.fileHandleForWriting.write(contentsOf: line + [0x0A])
        } catch {
            throw reap()
        }
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let answer = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return answer
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw .timedOut
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            guard poll(&poller, 1, milliseconds) >= 0 || errno == EINTR else { throw reap() }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw reap() }
            buffered.append(contentsOf: chunk[..<count])
        }
    }

    /// Closes the child's input (it exits at end of input) and kills it if it lingers.
    func terminate() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    private func reap() -> Failure {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            return .died(signal: process.terminationStatus, status: nil)
        }
        return .died(signal: nil, status: process.terminationStatus)
    }
}
