import Variants

/// `variantd work --listen`: the daemon's health and metrics endpoints for a worker, on the daemon's HTTP
/// server. Every answer waits only for one small query of the queue.
struct WorkStatusRouter: HTTPResponder {
    let queue: any JobQueue
    let metrics: WorkerMetrics
    let pool: PipelinePool
    let stop: any StopRequest

    func respond(to request: HTTPRequest) -> HTTPReply {
        switch (request.routedMethod, request.path) {
        case ("GET", "/livez"):
            return .now(.json(["status": "ok"]))
        case ("GET", "/readyz"):
            return .later { await readiness() }
        case ("GET", "/metrics"):
            return .later {
                let gauges = WorkerMetrics.Gauges(
                    jobs: try? await queue.stateCounts(), decoderCrashes: await pool.crashes,
                    residentBytes: ProcessMemory.residentBytes, openDescriptors: ProcessDescriptors.openCount)
                return .text(metrics.render(gauges), contentType: PrometheusText.contentType)
            }
        case (_, "/livez"), (_, "/readyz"), (_, "/metrics"):
            return .now(.methodNotAllowed(request.path, takes: "GET"))
        default:
            return .now(.error(VariantsError(.notFound, "no route for \(request.method) \(request.path)")))
        }
    }

    /// Ready while claiming and the queue answers; `503` once stopping, when the queue is unreachable,
    /// while decoder children die on too many different files for the files to be blamed, or while a place
    /// it writes to cannot take writes.
    private func readiness() async -> HTTPResponse {
        guard !stop.isRequested else { return .json(["status": "draining"], status: 503) }
        guard !pool.suspicion.isSuspect() else { return .json(["status": "host_suspect"], status: 503) }
        if let (place, blockage) = WriteHealth.shared.blocked().first {
            return .json(["status": blockage.rawValue, "place": place.rawValue], status: 503)
        }
        guard let jobs = try? await queue.stateCounts() else {
            return .json(["status": "queue_unreachable"], status: 503)
        }
        // A standby not yet promoted answers the count above but refuses every claim and finish.
        guard !metrics.isQueueWriteFailing else { return .json(["status": "queue_unwritable"], status: 503) }
        return .json(
            [
                "status": .string("ready"), "available": .integer(jobs[.available] ?? 0),
                "running": .integer(jobs[.running] ?? 0),
            ] as [String: JSONScalar])
    }
}
