import Foundation
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// Process signals delivered to Swift code as an `AsyncStream` of signal numbers.
///
/// A minimal handler writes the signal number to a pipe (`write` is async-signal-safe) and a thread reads
/// it. Unlike libdispatch's signal sources, this cannot lose a signal to a thread mask: those need the signal
/// blocked in every thread.
public enum SignalStream {
    /// The signals commands act on, by name, so code above the backend needs no C header.
    static let interrupt = SIGINT
    static let terminate = SIGTERM
    static let hangUp = SIGHUP

    /// Unblocks every signal in the calling thread. `main` calls it before any other thread exists: a process
    /// inherits the signal mask of the thread that started it, and a parent's libdispatch worker threads block
    /// nearly every signal, which would leave Ctrl-C and SIGTERM pending forever in all our threads.
    public static func resetInheritedMask() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
    }

    /// The pipe the handler writes to; set once, before any handler is installed.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    private static let handler: @convention(c) (Int32) -> Void = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(SignalStream.writeEnd, &byte, 1)
    }

    /// Starts catching `numbers`; call once per process.
    static func watch(_ numbers: [Int32]) -> AsyncStream<Int32> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return AsyncStream { $0.finish() } }
        let readEnd = ends[0]
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        writeEnd = ends[1]
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let reader = Thread {
            while let byte = (try? FileDescriptor(readEnd).read(upTo: 1))?.first {
                continuation.yield(Int32(byte))
            }
            continuation.finish()
        }
        reader.name = "variantd.signals"
        reader.start()
        for number in numbers { signal(number, handler) }
        return stream
    }

    /// Makes writing to a pipe whose reader has gone an error to handle (EPIPE) rather than a reason to die.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Gives the signals their default actions back (a second Ctrl-C then ends the process at once).
    static func restoreDefaults(_ numbers: [Int32]) {
        for number in numbers { signal(number, SIG_DFL) }
    }
}
