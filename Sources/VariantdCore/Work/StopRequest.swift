import Synchronization

/// What tells a long-running loop to take no more work: a signal to `variantd work`, or the daemon draining
/// the worker it runs beside its HTTP server.
protocol StopRequest: Sendable {
    var isRequested: Bool { get }
}

extension InterruptSignal: StopRequest {
    var isRequested: Bool { received != nil }
}

/// A stop requested by the program itself.
final class StopFlag: StopRequest {
    private let requested = Atomic<Bool>(false)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    func request() {
        requested.store(true, ordering: .releasing)
    }
}
