import Dispatch

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
        let (stream, continuation) = AsyncStream.makeStream(of: SignalEvent.self)
        // Kept alive by the termination handler; a source that is released stops delivering.
        nonisolated(unsafe) let sources = [
            (SIGTERM, SignalEvent.terminate), (SIGINT, .terminate), (SIGHUP, .reload),
        ].map {
            number, event in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(event) }
            source.resume()
            return source
        }
        continuation.onTermination = { _ in sources.forEach { $0.cancel() } }
        return stream
    }
}
