import Synchronization

/// What `variantd work --listen` reports on `GET /metrics`, in the daemon's Prometheus text form: the
/// queue's jobs by state, this process's finished attempts by outcome, how long claims take, lost leases,
/// failed callbacks and decoder crashes.
final class WorkerMetrics: Sendable {
    private let state = Mutex(State())

    private struct State {
        var attempts: [Outcome: Int] = [:]
        var claimDuration = Histogram()
        var leaseLosses = 0
        var callbackFailures = 0
        var queueWriteFailures = 0
        /// The last claim or finish failed and none has succeeded since.
        var queueWritesFailing = false
    }

    /// The state an attempt left its job in, and its code (`ok` or the error code).
    private struct Outcome: Hashable, Comparable {
        var state: String
        var code: String

        static func < (a: Outcome, b: Outcome) -> Bool {
            (a.state, a.code) < (b.state, b.code)
        }
    }

    /// What the worker's other parts report at render time.
    struct Gauges: Sendable {
        /// Nil when the queue could not be read.
        var jobs: [JobState: Int]?
        var decoderCrashes: Int
        var residentBytes: Int?
        var openDescriptors: Int?
    }

    func claimed(after seconds: Double) {
        state.withLock { state in
            state.claimDuration.observe(seconds)
            state.queueWritesFailing = false
        }
    }

    /// A claim or a finish the database refused or did not answer: a server down, or one that takes no
    /// writes (a standby not yet promoted).
    func queueWriteFailed() {
        state.withLock { state in
            state.queueWriteFailures += 1
            state.queueWritesFailing = true
        }
    }

    /// A finish the database took.
    func queueWriteSucceeded() {
        state.withLock { $0.queueWritesFailing = false }
    }

    /// Whether the last claim or finish failed: readiness says the queue cannot be worked.
    var isQueueWriteFailing: Bool { state.withLock { $0.queueWritesFailing } }

    func finished(_ jobState: JobState, code: String) {
        state.withLock { $0.attempts[Outcome(state: jobState.rawValue, code: code), default: 0] += 1 }
    }

    func leaseLost() {
        state.withLock { $0.leaseLosses += 1 }
    }

    func callbackFailed() {
        state.withLock { $0.callbackFailures += 1 }
    }

    func render(_ gauges: Gauges) -> String {
        let state = state.withLock { $0 }
        var text = PrometheusText()
        if let jobs = gauges.jobs {
            text.family(
                "variantd_work_jobs", "gauge", "Jobs in the queue, by state.",
                JobState.allCases.map { "variantd_work_jobs{state=\"\($0.rawValue)\"} \(jobs[$0] ?? 0)" })
        }
        text.family(
            "variantd_work_attempts_total", "counter",
            "Attempts this process finished, by the state they left the job in and their code.",
            state.attempts.keys.sorted().map { key in
                "variantd_work_attempts_total{state=\"\(key.state)\",code=\"\(key.code)\"} \(state.attempts[key] ?? 0)"
            })
        text.family(
            "variantd_work_claim_duration_seconds", "histogram", "Seconds one claim took, found or not.",
            state.claimDuration.lines("variantd_work_claim_duration_seconds", labels: ""))
        text.single(
            "variantd_work_queue_write_failures_total", "counter",
            "Claims and finishes the queue's database refused or did not answer.", state.queueWriteFailures)
        text.single(
            "variantd_work_lease_losses_total", "counter",
            "Jobs whose lease this process lost before writing the result back.", state.leaseLosses)
        text.single(
            "variantd_work_callback_failures_total", "counter",
            "Callbacks that still failed after their retries.", state.callbackFailures)
        text.single(
            "variantd_decoder_crashes_total", "counter",
            "Decoder children that died or overran the deadline.",
            gauges.decoderCrashes)
        if let resident = gauges.residentBytes {
            text.single(
                "variantd_process_resident_memory_bytes", "gauge", "Resident memory of the worker process.",
                resident)
        }
        if let descriptors = gauges.openDescriptors {
            text.single(
                "variantd_process_open_fds", "gauge", "Open file descriptors of the worker process.",
                descriptors)
        }
        text.objectStorage(.shared)
        text.writeHealth(.shared)
        return text.text
    }
}
