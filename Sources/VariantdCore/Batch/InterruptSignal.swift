import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM turned into a flag the batch checks before dispatching each file, so a run
/// stops cleanly: nothing new starts, work in flight finishes, the manifest keeps whole lines only.
///
/// The signals are ignored at the process level (`SIG_IGN`) and observed through dispatch sources, so no
/// code runs in a signal handler. A second signal means "now": `onSecond` runs, and must end the process.
final class InterruptSignal: Sendable {
    static let handled: [Int32] = [SIGINT, SIGTERM]

    private let firstSignal = Mutex<Int32?>(nil)
    /// Kept alive while watching; behind a lock because dispatch sources are not `Sendable`.
    private let sources: Mutex<[any DispatchSourceSignal]>

    /// Starts watching; `onFirst` and `onSecond` run on a dispatch queue with the signal number.
    init(onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable (Int32) -> Never) {
        let queue = DispatchQueue(label: "variantd.signals")
        sources = Mutex(
            Self.handled.map { number in
                signal(number, SIG_IGN)
                return DispatchSource.makeSignalSource(signal: number, queue: queue)
            })
        sources.withLock { sources in
            for (number, source) in zip(Self.handled, sources) {
                source.setEventHandler { [self] in
                    let first = firstSignal.withLock { received in
                        defer { received = received ?? number }
                        return received == nil
                    }
                    if first { onFirst(number) } else { onSecond(number) }
                }
                source.resume()
            }
        }
    }

    /// The first signal received, if any.
    var received: Int32? { firstSignal.withLock { $0 } }

    /// Stops watching and restores the default actions.
    func stop() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
        }
        for number in Self.handled { signal(number, SIG_DFL) }
    }
}
