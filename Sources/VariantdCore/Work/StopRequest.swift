import Synchronization

/// What tells a long-running loop to take no more work: a signal to `variantd work`, or the daemon draining
/// the worker it runs beside its HTTP server.
protocol StopRequest: Sendable {
    var isRequested: Bool { get }
}

extension InterruptSignal: StopRequest {
    var isRequested: Bool { received != nil }
}

/// A flag the program raises itself, once: a stop it asks for, or the end of work it waits on.
final class StopFlag: StopRequest {
    private let requested = Atomic<Bool>(false)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    func request() {
        requested.store(true, ordering: .releasing)
    }
}
