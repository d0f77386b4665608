#if canImport(Glibc)
    import Glibc
#endif

/// The signals the daemon acts on, delivered as a stream instead of in a signal handler.
enum SignalEvent: Sendable {
    /// SIGTERM or SIGINT: drain and exit.
    case terminate
    /// SIGHUP: reload the bucket declarations.
    case reload

    /// Starts listening for the signals (and ignores SIGPIPE: a closed client or child pipe is an error
    /// to handle, not a reason to die). Call before the daemon accepts work.
    static func stream() -> AsyncStream<SignalEvent> {
        signal(SIGPIPE, SIG_IGN)
        let numbers = SignalStream.watch([SIGTERM, SIGINT, SIGHUP])
        return AsyncStream { continuation in
            let relay = Task {
                for await number in numbers { continuation.yield(number == SIGHUP ? .reload : .terminate) }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }
}
