import Foundation
import Variants

/// A running decoder child and the pipes to it: the only isolation file that deals with the process itself
/// (started through `SpawnedProcess`, polled, killed), so the rest works with lines of text and typed
/// outcomes.
final class ChildProcess {
    /// How a request to the child ended when no line came back.
    enum Failure: Error {
        /// The child died: by a signal (an abort or a crash inside a C library), or by exiting; `refused` is
        /// the system call its filter refused, when it died by SIGSYS and said which.
        case died(signal: Int32?, status: Int32?, refused: SyscallFilter.Refusal? = nil)
        /// No answer before the deadline; the child has been killed.
        case timedOut
    }

    /// Signalled from another thread when the job it works on is cancelled (`SpawnedProcess` locks).
    let process: SpawnedProcess
    /// This side's ends of the pipes: the child's input (non-blocking; nil once closed) and its output,
    /// close-on-exec both.
    private var input: FileDescriptor?
    private let output: FileDescriptor
    /// Where a sealed child says, as it dies, which system call its filter refused (non-blocking).
    private let refusals: FileDescriptor
    private var buffered: [UInt8] = []

    init(executable: String, arguments: [String]) throws {
        // A child that dies while its job is being written must be an error on this side, not SIGPIPE.
        SignalStream.ignoreBrokenPipes()
        var environment = ProcessInfo.processInfo.environment
        environment["VIPS_WARNING"] = "0"
        // One malloc arena: glibc shrinks a thread's extra arena by first reading /proc/sys/vm/
        // overcommit_memory, a file a sealed child may not open; one arena also returns memory more fully.
        environment["MALLOC_ARENA_MAX"] = "1"
        // A fixed time zone for C libraries' log lines: read once before sealing, never looked up again.
        environment["TZ"] = "UTC0"
        // Every descriptor made here is closed on the way out, but the two ends this side keeps once the
        // child runs: one cleanup whichever step fails.
        var made: [FileDescriptor] = []
        defer { for descriptor in made { descriptor.close() } }
        let toChild = try SpawnedProcess.pipe(for: executable)
        made += [toChild.read, toChild.write]
        let fromChild = try SpawnedProcess.pipe(for: executable)
        made += [fromChild.read, fromChild.write]
        let refused = try SpawnedProcess.pipe(for: executable)
        made += [refused.read, refused.write]
        process = try SpawnedProcess(
            executable, arguments: arguments, environment: environment, standardInput: toChild.read,
            standardOutput: fromChild.write, standardError: nil, third: refused.write)
        input = toChild.write
        output = fromChild.read
        refusals = refused.read
        made = [toChild.read, fromChild.write, refused.write]
        refusals.makeNonBlocking()
        // Writes wait in `poll`, so a child that stops reading cannot hold the parent past the deadline.
        toChild.write.makeNonBlocking()
        // A child killed while idle (from outside, by an OOM killer) is reaped as it dies, not left a zombie
        // until its slot's next job looks at it.
        let started = process
        Thread.detachNewThread { _ = started.waitForExit() }
    }

    deinit {
        terminate()
        output.close()
        refusals.close()
    }

    var isRunning: Bool { process.isRunning }

    var processID: Int32 { process.processID }

    /// Writes `parts` to the child's input, one after the other, until the deadline.
    func send(_ parts: [[UInt8]], deadline: ContinuousClock.Instant) throws(Failure) {
        guard let input else { throw reap() }
        for part in parts {
            var offset = 0
            while offset < part.count {
                try wait(for: input, until: .writable, deadline: deadline)
                let written: Int
                do {
                    written = try input.writeSome(part[offset..<min(part.count, offset + (1 << 16))])
                } catch {
                    throw reap()
                }
                offset += written
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
        try wait(for: output, until: .readable, deadline: deadline)
        guard let chunk = try? output.read(upTo: 1 << 16), !chunk.isEmpty else { throw reap() }
        buffered.append(contentsOf: chunk)
    }

    /// Waits until `descriptor` is ready; kills the child when the deadline passes first.
    private func wait(
        for descriptor: FileDescriptor, until readiness: FileDescriptor.Readiness,
        deadline: ContinuousClock.Instant
    ) throws(Failure) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                process.kill()
                _ = process.waitForExit()
                throw .timedOut
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + 1)
            let ready: Bool
            do {
                ready = try descriptor.wait(until: readiness, milliseconds: milliseconds)
            } catch {
                throw reap()
            }
            if ready { return }
        }
    }

    /// Closes the child's input (it exits at end of input) and kills it if it lingers.
    func terminate() {
        closeInput()
        process.kill()
        _ = process.waitForExit()
    }

    private func closeInput() {
        input?.close()
        input = nil
    }

    private func reap() -> Failure {
        closeInput()
        switch process.waitForExit() {
        case .signalled(let signal):
            let said = signal == SIGSYS ? (try? refusals.read(upTo: 64)) ?? [] : []
            return .died(signal: signal, status: nil, refused: SyscallFilter.Refusal(said))
        case .exited(let status): return .died(signal: nil, status: status)
        }
    }
}
