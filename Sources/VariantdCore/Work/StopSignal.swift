import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM and SIGINT turned into a flag: workers stop claiming, finish what they hold, and exit.
///
/// `@unchecked Sendable` because the signal sources are only kept alive here, never touched again.
final class StopSignal: @unchecked Sendable {
    private let requested = Atomic<Bool>(false)
    private var sources: [any DispatchSourceSignal] = []

    /// Catches the signals from now on (the default action, ending the process at once, is replaced).
    static func catching() -> StopSignal {
        let stop = StopSignal()
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.request() }
            source.resume()
            stop.sources.append(source)
        }
        return stop
    }

    func request() {
        requested.store(true, ordering: .releasing)
    }

    var isRequested: Bool { requested.load(ordering: .acquiring) }
}
