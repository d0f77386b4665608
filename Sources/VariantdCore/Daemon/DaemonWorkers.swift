/// The queue workers a daemon runs beside its HTTP server, as a task it can stop and wait for.
final class DaemonWorkers: Sendable {
    private let stopping = StopFlag()
    private let finished = StopFlag()

    init(_ make: (any StopRequest) -> Worker) {
        let worker = make(stopping)
        let finished = finished
        Task {
            await worker.run()
            finished.request()
        }
    }

    /// Claim no more; the jobs in hand are finished and written back.
    func stop() {
        stopping.request()
    }

    var isRunning: Bool { !finished.isRequested }
}
