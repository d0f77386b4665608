import Synchronization
import Variants

/// The daemon's counters and histograms, rendered in the Prometheus text format for `GET /metrics`.
final class ServerMetrics: Sendable {
    private let state = Mutex(State())

    private struct State {
        var jobs: [JobKey: Int] = [:]
        var jobDuration = Histogram()
        var stages: [Stage: Histogram] = [:]
        var bytesIn = 0
        var bytesOut = 0
        var decoderCrashes = 0
        var renderRequests: [JobKey: Int] = [:]
        var renderDuration: [String: Histogram] = [:]
        var rendersMade = 0
        var infoMeasured = 0
        var rendersAnswering = 0
        var slowClients: [ClientDeadlines.Phase: Int] = [:]
        var eventsQueued = 0
        var eventsIgnored = 0
        var transforms: [String: Int] = [:]
        var transformsRefused: [String: Int] = [:]
    }

    private struct JobKey: Hashable, Comparable {
        var outcome: String
        var code: String

        static func < (a: JobKey, b: JobKey) -> Bool {
            (a.outcome, a.code) < (b.outcome, b.code)
        }
    }

    /// What the daemon's other parts report at render time.
    struct Gauges: Sendable {
        var admission: Admission.Snapshot
        var slots: Int
        var waitingCapacity: Int
        var buckets: Int
        var residentBytes: Int?
        var openDescriptors: Int?
        /// The rendition cache's figures, when renditions are in object storage.
        var renditionCache: RenditionCache.Snapshot?
        /// The on-demand budget's figures, when one is set.
        var onDemand: OnDemandBudget.Snapshot? = nil
        /// Decoder children are dying on many different files (`HostSuspicion`).
        var hostSuspect = false
    }

    func record(_ job: JobRecord) {
        state.withLock { state in
            state.jobs[JobKey(outcome: job.outcome.rawValue, code: job.code), default: 0] += 1
            guard job.outcome != .rejected else { return }
            state.jobDuration.observe(job.seconds)
            for (stage, seconds) in job.stages {
                state.stages[stage, default: Histogram()].observe(seconds)
            }
            state.bytesIn += job.bytesIn
            state.bytesOut += job.bytesOut
        }
    }

    /// A render request arrived; `record(_:)` of its answer ends it.
    func countRenderArrived() {
        state.withLock { $0.rendersAnswering += 1 }
    }

    func record(_ render: RenderRecord) {
        state.withLock { state in
            state.rendersAnswering -= 1
            state.renderRequests[JobKey(outcome: render.outcome.rawValue, code: render.code), default: 0] += 1
            state.renderDuration[render.outcome.rawValue, default: Histogram()].observe(render.seconds)
        }
    }

    /// A connection closed over the head deadline or under the body rate.
    @Sendable func countSlowClient(_ phase: ClientDeadlines.Phase) {
        state.withLock { $0.slowClients[phase, default: 0] += 1 }
    }

    /// Objects named by storage events: those committed as jobs, and those outside the root, of no declared
    /// bucket, or not objects at all (directories, the storage server's own files).
    func countEvents(queued: Int, ignored: Int) {
        state.withLock { state in
            state.eventsQueued += queued
            state.eventsIgnored += ignored
        }
    }

    /// A new transform counted against an account's allowance this month, or refused past it.
    func countTransform(account: String, refused: Bool) {
        state.withLock { state in
            if refused {
                state.transformsRefused[account, default: 0] += 1
            } else {
                state.transforms[account, default: 0] += 1
            }
        }
    }

    /// One render run in a decoder child for on-demand requests, however many requests shared it.
    func countRenderMade() {
        state.withLock { $0.rendersMade += 1 }
    }

    /// One object measured in a decoder child for `/v1/info`: its checksum was not remembered.
    func countInfoMeasured() {
        state.withLock { $0.infoMeasured += 1 }
    }

    /// The decoder pool's count of children that died or were killed, as a job read it when it ended. Jobs
    /// report out of order (one may read the count before another job's crash and report it after), so the
    /// largest count stands: a counter that went back would read as a restart.
    func setDecoderCrashes(_ crashes: Int) {
        state.withLock { $0.decoderCrashes = max($0.decoderCrashes, crashes) }
    }

    /// Mean seconds of the jobs that ran, for estimating `Retry-After`; nil before the first.
    var meanJobSeconds: Double? {
        state.withLock { $0.jobDuration.count == 0 ? nil : $0.jobDuration.sum / Double($0.jobDuration.count) }
    }

    func render(_ gauges: Gauges) -> String {
        let state = state.withLock { $0 }
        var text = PrometheusText()
        text.family(
            "variantd_jobs_total", "counter", "Jobs answered, by outcome (ok, failed, rejected) and code.",
            state.jobs.keys.sorted().map { key in
                "variantd_jobs_total{outcome=\"\(key.outcome)\",code=\"\(key.code)\"} \(state.jobs[key] ?? 0)"
            })
        text.family(
            "variantd_job_duration_seconds", "histogram",
            "Seconds from admission to answer of jobs that ran.",
            state.jobDuration.lines("variantd_job_duration_seconds", labels: ""))
        text.family(
            "variantd_stage_duration_seconds", "histogram", "Seconds per pipeline stage of jobs that ran.",
            Stage.allCases.compactMap { stage in
                state.stages[stage]?.lines(
                    "variantd_stage_duration_seconds", labels: "stage=\"\(stage.rawValue)\"")
            }.flatMap(\.self))
        text.family(
            "variantd_render_requests_total", "counter",
            "Render requests answered, by outcome (hit, miss, shared, not_modified, failed, rejected) and code.",
            state.renderRequests.keys.sorted().map { key in
                let labels = "outcome=\"\(key.outcome)\",code=\"\(key.code)\""
                return "variantd_render_requests_total{\(labels)} \(state.renderRequests[key] ?? 0)"
            })
        text.family(
            "variantd_render_duration_seconds", "histogram",
            "Seconds from arrival to answer of render requests.",
            state.renderDuration.keys.sorted().flatMap { outcome in
                state.renderDuration[outcome]!.lines(
                    "variantd_render_duration_seconds", labels: "outcome=\"\(outcome)\"")
            })
        text.family(
            "variantd_slow_clients_total", "counter",
            "Connections closed because their head took longer than --header-timeout (phase head) or their body "
                + "came slower than --min-body-rate (phase body).",
            ClientDeadlines.Phase.allCases.map { phase in
                "variantd_slow_clients_total{phase=\"\(phase.rawValue)\"} \(state.slowClients[phase] ?? 0)"
            })
        text.family(
            "variantd_events_total", "counter",
            "Objects named by storage events: queued as jobs, or ignored (outside --root, of no declared bucket, "
                + "or not objects).",
            [
                "variantd_events_total{outcome=\"queued\"} \(state.eventsQueued)",
                "variantd_events_total{outcome=\"ignored\"} \(state.eventsIgnored)",
            ])
        text.family(
            "variantd_transforms_total", "counter",
            "New transforms counted against an account's monthly allowance by this daemon.",
            state.transforms.keys.sorted().map {
                "variantd_transforms_total{account=\"\($0)\"} \(state.transforms[$0]!)"
            })
        text.family(
            "variantd_transforms_refused_total", "counter",
            "New transforms refused past an account's monthly allowance (plan_feature_locked).",
            state.transformsRefused.keys.sorted().map {
                "variantd_transforms_refused_total{account=\"\($0)\"} \(state.transformsRefused[$0]!)"
            })
        var single: [(name: String, type: String, help: String, value: Int)] = [
            (
                "variantd_renders_total", "counter",
                "On-demand renditions rendered in a decoder child (identical requests share one).",
                state.rendersMade
            ),
            (
                "variantd_info_measured_total", "counter",
                "Objects measured in a decoder child for /v1/info (once per checksum while it is remembered).",
                state.infoMeasured
            ),
            (
                "variantd_render_requests_in_flight", "gauge",
                "Render requests arrived and not yet answered (their store requests may be under way).",
                state.rendersAnswering
            ),
            ("variantd_jobs_in_flight", "gauge", "Jobs holding a render slot.", gauges.admission.running),
            ("variantd_queue_depth", "gauge", "Jobs waiting for a render slot.", gauges.admission.queued),
            ("variantd_render_slots", "gauge", "Render slots (decoder children).", gauges.slots),
            (
                "variantd_queue_capacity", "gauge", "Jobs that may wait before 503 transform_busy.",
                gauges.waitingCapacity
            ),
            ("variantd_source_bytes_total", "counter", "Bytes of source objects processed.", state.bytesIn),
            ("variantd_rendition_bytes_total", "counter", "Bytes of renditions written.", state.bytesOut),
            (
                "variantd_decoder_crashes_total", "counter",
                "Decoder children that died or overran the deadline.",
                state.decoderCrashes
            ),
            (
                "variantd_bucket_declarations", "gauge", "Bucket declarations loaded from --buckets.",
                gauges.buckets
            ),
            (
                "variantd_draining", "gauge", "1 after SIGTERM, while jobs in flight finish.",
                gauges.admission.draining ? 1 : 0
            ),
            (
                "variantd_decoder_host_suspect", "gauge",
                "1 while decoder children die on many different files: the host, not the files, is suspect, "
                    + "and no file is quarantined.",
                gauges.hostSuspect ? 1 : 0
            ),
        ]
        if let resident = gauges.residentBytes {
            single.append(
                (
                    "variantd_process_resident_memory_bytes", "gauge",
                    "Resident memory of the daemon process.", resident
                ))
        }
        if let descriptors = gauges.openDescriptors {
            single.append(
                (
                    "variantd_process_open_fds", "gauge", "Open file descriptors of the daemon process.",
                    descriptors
                ))
        }
        for metric in single {
            text.single(metric.name, metric.type, metric.help, metric.value)
        }
        if let cache = gauges.renditionCache { text.renditionCache(cache) }
        if let onDemand = gauges.onDemand {
            text.single(
                "variantd_on_demand_bytes", "gauge",
                "Bytes of transforms' renditions in the rendition store known to this daemon "
                    + "(--on-demand-budget).", onDemand.bytes)
            text.single(
                "variantd_on_demand_evictions_total", "counter",
                "Transforms' renditions removed from the rendition store, least recently used first, to keep "
                    + "them within --on-demand-budget.", onDemand.evictions)
        }
        text.objectStorage(.shared)
        text.writeHealth(.shared)
        return text.text
    }
}
