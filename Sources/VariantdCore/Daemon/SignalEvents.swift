/// The signals the daemon acts on, delivered as a stream instead of in a signal handler.
enum SignalEvent: Sendable {
    /// SIGTERM or SIGINT: drain and exit.
    case terminate
    /// SIGHUP: reload the bucket declarations.
    case reload

    /// Starts listening for the signals (and ignores SIGPIPE: a closed client or child pipe is an error
    /// to handle, not a reason to die). Call before anything slow: until `startup` is over, a stop signal
    /// ends the process at once and a reload waits in the stream.
    static func stream(startup: StartupPhase) -> AsyncStream<SignalEvent> {
        SignalStream.ignoreBrokenPipes()
        let numbers = SignalStream.watch([
            SignalStream.terminate, SignalStream.interrupt, SignalStream.hangUp,
        ])
        return AsyncStream { continuation in
            let relay = Task {
                for await number in numbers {
                    if number != SignalStream.hangUp, !startup.isOver {
                        ExitStatus(stoppedBy: number).endProcessLeavingThreads()
                    }
                    continuation.yield(number == SignalStream.hangUp ? .reload : .terminate)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }
}
