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

    init(executable: String, arguments: [String]) throws {
        // A child that dies while its job is being written must be an error on this side, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["VIPS_WARNING"] = "0"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Writes wait in `poll`, so a child that stops reading cannot hold the parent past the deadline.
        let writeEnd = input.fileHandleForWriting.fileDescriptor
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        terminate()
    }

    var isRunning: Bool { process.isRunning }

    var processID: Int32 { process.processIdentifier }

    /// Writes `parts` to the child's input, one after the other, until the deadline.
    func send(_ parts: [[UInt8]], deadline: ContinuousClock.Instant) throws(Failure) {
        let fd = input.fileHandleForWriting.fileDescriptor
        for part in parts {
            var offset = 0
            while offset < part.count {
                try wait(for: fd, events: POLLOUT, until: deadline)
                let count = part[offset...].withUnsafeBytes {
                    write(fd, $0.baseAddress, min($0.count, 1 << 16))
                }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count > 0 else { throw reap() }
                offset += count
            }
        }
    }

    /// The next line from the child (without its newline), waiting until the deadline.
    func line(deadline: ContinuousClock.Instant) throws(Failure) -> [UInt8] {
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let answer = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return answer
            }
            try fill(until: deadline)
        }
    }

    /// The next `count` bytes from the child, waiting until the deadline.
    func bytes(_ count: Int, deadline: ContinuousClock.Instant) throws(Failure) -> [UInt8] {
        while buffered.count < count {
            try fill(until: deadline)
        }
        let bytes = Array(buffered[..<count])
        buffered.removeSubrange(..<count)
        return bytes
    }

    /// Reads what the child has written so far into `buffered`.
    private func fill(until deadline: ContinuousClock.Instant) throws(Failure) {
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            try wait(for: fd, events: POLLIN, until: deadline)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw reap() }
            buffered.append(contentsOf: chunk[..<count])
            return
        }
    }

    /// Waits until `fd` is ready for `events`; kills the child when the deadline passes first.
    private func wait(for fd: Int32, events: Int32, until deadline: ContinuousClock.Instant) throws(Failure) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw .timedOut
            }
            var poller = pollfd(fd: fd, events: Int16(events), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw reap() }
            if ready > 0 { return }
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
