import Variants

/// Maps requests to answers: the health and metrics endpoints at once, jobs after the edge checks
/// (secret, body size, validation, bucket, admission) as work that waits for a render slot.
struct Router: HTTPResponder {
    /// Required on TCP; nil on a Unix socket, whose file permissions decide who may connect.
    let secret: BearerSecret?
    let objects: any ObjectStore
    let registry: BucketRegistry
    let admission: Admission
    let metrics: ServerMetrics
    let runner: JobRunner
    /// Where `?async=1` jobs, storage events and deletions go.
    let queue: any JobQueue
    /// On-demand renditions, `/v1/render/…`.
    let render: RenderService
    /// Objects' completion metadata, `/v1/info/…`.
    let info: InfoService
    /// Storage events and deletions, `/v1/events` and `/v1/objects/…`.
    let changes: ObjectChanges
    /// Accounts' transform allowances and usage, `/v1/accounts/…`.
    let accounts: AccountsEndpoint
    let errorHeaders: ErrorHeaders

    func respond(to request: HTTPRequest) -> HTTPReply {
        switch (request.routedMethod, request.path) {
        case ("GET", "/livez"):
            return .now(.json(["status": "ok"]))
        case ("GET", "/readyz"):
            return .now(readiness())
        case ("GET", "/metrics"):
            return .now(
                .text(metrics.render(gauges), contentType: PrometheusText.contentType))
        case ("POST", "/v1/jobs"):
            return submit(request)
        case ("POST", "/v1/events"):
            return authorized(request, changes.events)
        case ("DELETE", _) where request.path.hasPrefix(ObjectChanges.deletePrefix):
            return authorized(request, changes.deletion)
        case (_, _) where request.path.hasPrefix(AccountsEndpoint.prefix):
            return authorized(request, accounts.respond)
        case ("GET", _) where request.path.hasPrefix(RenderRequest.prefix), ("POST", RenderRequest.postPath):
            return render.respond(to: request)
        case ("GET", _) where request.path.hasPrefix(InfoService.prefix):
            return info.respond(to: request)
        case (_, RenderRequest.postPath), (_, "/v1/jobs"), (_, "/v1/events"):
            return .now(.methodNotAllowed(request.path, takes: "POST"))
        case (_, _) where request.path.hasPrefix(ObjectChanges.deletePrefix):
            return .now(.methodNotAllowed(request.path, takes: "DELETE"))
        case (_, _) where request.path.hasPrefix(RenderRequest.prefix),
            (_, _) where request.path.hasPrefix(InfoService.prefix),
            (_, "/livez"), (_, "/readyz"), (_, "/metrics"):
            return .now(.methodNotAllowed(request.path, takes: "GET"))
        default:
            return .now(.error(VariantsError(.notFound, "no route for \(request.method) \(request.path)")))
        }
    }

    private var gauges: ServerMetrics.Gauges {
        ServerMetrics.Gauges(
            admission: admission.snapshot, slots: admission.slots, waitingCapacity: admission.waitingCapacity,
            buckets: registry.count, residentBytes: ProcessMemory.residentBytes,
            openDescriptors: ProcessDescriptors.openCount,
            renditionCache: render.cache?.snapshot, onDemand: render.budget?.snapshot,
            hostSuspect: render.pool.suspicion.isSuspect())
    }

    private func readiness() -> HTTPResponse {
        let snapshot = admission.snapshot
        let body = ["running": snapshot.running, "queued": snapshot.queued]
        // Decoder children dying on many different files: a load balancer should send uploads elsewhere.
        if render.pool.suspicion.isSuspect() {
            return .json(
                body.mapValues(JSONScalar.integer).merging(["status": .string("host_suspect")]) { $1 },
                status: 503)
        }
        // A store that cannot take writes: renders and jobs would fail until it can.
        if let (place, blockage) = WriteHealth.shared.blocked().first {
            return .json(
                body.mapValues(JSONScalar.integer).merging([
                    "status": .string(blockage.rawValue), "place": .string(place.rawValue),
                ]) { $1 },
                status: 503)
        }
        guard admission.isReady else {
            return .json(
                body.mapValues(JSONScalar.integer).merging(
                    ["status": .string(snapshot.draining ? "draining" : "busy")]) { $1 }, status: 503)
        }
        return .json(body.mapValues(JSONScalar.integer).merging(["status": .string("ready")]) { $1 })
    }

    /// Refuses a job from its head alone when it can (a NUL in its target; an upload's secret, type, query,
    /// bucket), so its bytes are never read; otherwise bounds an upload's body by the bucket's
    /// `fileSizeLimit` and the input limit.
    func admit(_ head: HTTPRequest) -> BodyAdmission {
        guard head.method == "POST", head.path == "/v1/jobs" else { return .read }
        do throws(AnswerError) {
            try AnswerError.catching { () throws(VariantsError) in try head.checkNoNUL() }
            let form = try AnswerError.catching { () throws(VariantsError) in try JobRequest.Form(head) }
            guard form == .upload else { return .read }
            try authorize(head)
            let (declaration, upload) = try AnswerError.catching { () throws(VariantsError) in
                let upload = try JobRequest(query: head.query, body: .empty)
                return (try bucket(of: upload), upload)
            }
            return .readUpTo(min(Self.uploadLimit(declaration), upload.ceilings.maxBytes ?? .max))
        } catch {
            runner.finish(JobRecord(request: nil, error: error))
            return .answer(.error(error, headers: errorHeaders.headers(error)))
        }
    }

    /// The most bytes an uploaded object of a bucket may have.
    private static func uploadLimit(_ bucket: BucketDeclaration) -> Int {
        min(Limits.default.maxInputBytes, bucket.fileSizeLimit ?? .max)
    }

    private func submit(_ request: HTTPRequest) -> HTTPReply {
        var job: JobRequest?
        do throws(AnswerError) {
            try authorize(request)
            let admitted: JobRequest
            switch try AnswerError.catching({ () throws(VariantsError) in try JobRequest.Form(request) }) {
            case .json:
                try request.checkBodyKept(tooLarge: "the job body is over the server's limit")
                admitted = try AnswerError.catching { () throws(VariantsError) in
                    try JobRequest(body: try request.body.bytes(), objects: objects)
                }
            case .upload:
                admitted = try AnswerError.catching { () throws(VariantsError) in
                    try JobRequest(query: request.query, body: request.body)
                }
                job = admitted
                let limit = min(
                    Self.uploadLimit(
                        try AnswerError.catching { () throws(VariantsError) in try bucket(of: admitted) }),
                    admitted.ceilings.maxBytes ?? .max)
                try request.checkBodyKept(tooLarge: "the object is over the limit of \(limit) bytes")
            }
            job = admitted
            if request.query["async"] == "1" {
                return try AnswerError.catching { () throws(VariantsError) in
                    try enqueue(admitted, version: request.query["version"] ?? "")
                }
            }
            let (declaration, policy) = try AnswerError.catching { () throws(VariantsError) in
                let declaration = try bucket(of: admitted)
                return (declaration, try declaration.policy.narrowed(by: admitted.ceilings))
            }
            try enter()
            return .later {
                defer { admission.leave() }
                return await runner.run(admitted, bucket: declaration, policy: policy)
            }
        } catch {
            runner.finish(JobRecord(request: job, error: error))
            return .now(.error(error, headers: errorHeaders.headers(error)))
        }
    }

    /// Answers with `handle` once the request carries the secret; its refusals as the error JSON.
    private func authorized(
        _ request: HTTPRequest, _ handle: (HTTPRequest) throws(AnswerError) -> HTTPReply
    ) -> HTTPReply {
        do throws(AnswerError) {
            try authorize(request)
            return try handle(request)
        } catch {
            return .now(.error(error, headers: errorHeaders.headers(error)))
        }
    }

    private func authorize(_ request: HTTPRequest) throws(AnswerError) {
        do {
            try secret?.authorize(request)
        } catch {
            throw .service(error)
        }
    }

    /// The job's bucket: its inline declaration, else the one in `--buckets`.
    private func bucket(of job: JobRequest) throws(VariantsError) -> BucketDeclaration {
        guard let declaration = job.inlineBucket ?? registry.bucket(named: job.object.bucket) else {
            throw VariantsError(
                .notFound, "bucket '\(job.object.bucket)' has no declaration, inline or in --buckets")
        }
        return declaration
    }

    /// Commits the job to the durable queue and answers 202 once it is committed; the queue's workers render
    /// it with their own bucket declarations, so an inline policy cannot travel with it.
    private func enqueue(_ job: JobRequest, version: String) throws(VariantsError) -> HTTPReply {
        guard job.ceilings == .none else {
            throw VariantsError(
                .invalidRequest,
                "async=1 holds a job to its bucket's policy only; drop maxBytes and allowedTypes")
        }
        guard job.inlineBucket == nil else {
            throw VariantsError(
                .invalidRequest, "async=1 renders with the workers' bucket declarations; drop bucketPolicy")
        }
        guard let source = job.source.key else {
            throw VariantsError(.invalidRequest, "async=1 takes a job naming a stored source")
        }
        let queued = try NewJob(request: job.object, version: version, source: source)
        return .later {
            do throws(QueueError) {
                let enqueued = try await queue.enqueue(queued)
                return .json(enqueued, status: 202)
            } catch {
                return .error(
                    .service(
                        ServiceError(
                            .transformBusy, "the job queue cannot take the job now: \(error.message)")),
                    headers: [("Retry-After", "5")])
            }
        }
    }

    private func enter() throws(AnswerError) {
        if let refusal = admission.enter() { throw .service(refusal.error) }
    }

}
