import Synchronization

/// The daemon's counters and histograms, rendered in the Prometheus text format for `GET /metrics`.
final class ServerMetrics: Sendable {
    private let state = Mutex(State())

    private struct State {
        var jobs: [JobKey: Int] = [:]
        var jobDuration = Histogram()
        var stages: [String: Histogram] = [:]
        var bytesIn = 0
        var bytesOut = 0
        var decoderCrashes = 0
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
        var queueDepth: Int
        var buckets: Int
        var residentBytes: Int?
    }

    func record(_ job: JobRecord) {
        state.withLock { state in
            state.jobs[JobKey(outcome: job.outcome.rawValue, code: job.code), default: 0] += 1
            guard job.outcome != .rejected else { return }
            state.jobDuration.observe(job.seconds)
            for (stage, seconds) in job.durations {
                state.stages[stage, default: Histogram()].observe(seconds)
            }
            state.bytesIn += job.bytesIn
            state.bytesOut += job.bytesOut
        }
    }

    /// The decoder pool's count of children that died or were killed.
    func setDecoderCrashes(_ crashes: Int) {
        state.withLock { $0.decoderCrashes = crashes }
    }

    /// Mean seconds of the jobs that ran, for estimating `Retry-After`; nil before the first.
    var meanJobSeconds: Double? {
        state.withLock { $0.jobDuration.count == 0 ? nil : $0.jobDuration.sum / Double($0.jobDuration.count) }
    }

    func render(_ gauges: Gauges) -> String {
        let state = state.withLock { $0 }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String, _ body: [String]) {
            lines += ["# HELP \(name) \(help)", "# TYPE \(name) \(type)"] + body
        }
        family(
            "variantd_jobs_total", "counter", "Jobs answered, by outcome (ok, failed, rejected) and code.",
            state.jobs.keys.sorted().map { key in
                "variantd_jobs_total{outcome=\"\(key.outcome)\",code=\"\(key.code)\"} \(state.jobs[key] ?? 0)"
            })
        family(
            "variantd_job_duration_seconds", "histogram", "Seconds from admission to answer of jobs that ran.",
            state.jobDuration.lines("variantd_job_duration_seconds", labels: ""))
        family(
            "variantd_stage_duration_seconds", "histogram", "Seconds per pipeline stage of jobs that ran.",
            state.stages.keys.sorted().flatMap { stage in
                state.stages[stage]!.lines("variantd_stage_duration_seconds", labels: "stage=\"\(stage)\"")
            })
        family("variantd_jobs_in_flight", "gauge", "Jobs holding a render slot.", [
            "variantd_jobs_in_flight \(gauges.admission.running)"
        ])
        family("variantd_queue_depth", "gauge", "Jobs waiting for a render slot.", [
            "variantd_queue_depth \(gauges.admission.queued)"
        ])
        family("variantd_render_slots", "gauge", "Render slots (decoder children).", [
            "variantd_render_slots \(gauges.slots)"
        ])
        family("variantd_queue_capacity", "gauge", "Jobs that may wait before 503 transform_busy.", [
            "variantd_queue_capacity \(gauges.queueDepth)"
        ])
        family("variantd_source_bytes_total", "counter", "Bytes of source objects processed.", [
            "variantd_source_bytes_total \(state.bytesIn)"
        ])
        family("variantd_rendition_bytes_total", "counter", "Bytes of renditions written.", [
            "variantd_rendition_bytes_total \(state.bytesOut)"
        ])
        family("variantd_decoder_crashes_total", "counter", "Decoder children that died or overran the deadline.", [
            "variantd_decoder_crashes_total \(state.decoderCrashes)"
        ])
        family("variantd_bucket_declarations", "gauge", "Bucket declarations loaded from --buckets.", [
            "variantd_bucket_declarations \(gauges.buckets)"
        ])
        family("variantd_draining", "gauge", "1 after SIGTERM, while jobs in flight finish.", [
            "variantd_draining \(gauges.admission.draining ? 1 : 0)"
        ])
        if let resident = gauges.residentBytes {
            family("variantd_process_resident_memory_bytes", "gauge", "Resident memory of the daemon process.", [
                "variantd_process_resident_memory_bytes \(resident)"
            ])
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
