import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM turned into a flag that long-running commands check before starting more
/// work, so they stop cleanly: nothing new starts and work in flight finishes (the batch before each file,
/// the queue worker before each claim). A second signal means "now": `onSecond` runs, and must end the
/// process. A command that can read its settings again takes SIGHUP too (`onHangUp`), which would otherwise
/// end it.
final class InterruptSignal: Sendable {
    private let handled: [Int32]

    /// The first signal, shared with the watching task.
    private final class FirstSignal: Sendable {
        let number = Mutex<Int32?>(nil)
    }

    private let firstSignal = FirstSignal()
    private let watcher: Task<Void, Never>

    /// Starts watching; `onFirst` and `onSecond` run with the signal number, `onHangUp` at each SIGHUP.
    init(
        onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable (Int32) -> Never,
        onHangUp: (@Sendable () -> Void)? = nil
    ) {
        handled =
            [SignalStream.interrupt, SignalStream.terminate] + (onHangUp == nil ? [] : [SignalStream.hangUp])
        let signals = SignalStream.watch(handled)
        let firstSignal = firstSignal
        watcher = Task {
            for await number in signals {
                if number == SignalStream.hangUp {
                    onHangUp?()
                    continue
                }
                let first = firstSignal.number.withLock { received in
                    defer { received = received ?? number }
                    return received == nil
                }
                if first { onFirst(number) } else { onSecond(number) }
            }
        }
    }

    /// The first signal received, if any.
    var received: Int32? { firstSignal.number.withLock { $0 } }

    /// Stops watching and restores the default actions.
    func stop() {
        watcher.cancel()
        SignalStream.restoreDefaults(handled)
    }
}
