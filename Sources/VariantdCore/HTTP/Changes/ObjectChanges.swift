import Variants

/// Storage events and deletions in: `POST /v1/events` (a SeaweedFS filer webhook or an S3 event message)
/// and `DELETE /v1/objects/<bucket>/<path>`. Each object they name becomes a job on the durable queue that
/// looks at the object as it is then — renders it when it is there, forgets it when it is gone — so an
/// event is a hint, not a fact: one that arrives late, twice or out of order does no harm. The answer comes
/// once the jobs are committed, so a crash after it loses nothing; a delivery repeated with the same
/// version is one job. The identity of each object named stops being trusted at once
/// (`RenderSources.forgetIdentity(of:)`), so this daemon's next request for it asks the store.
struct ObjectChanges: Sendable {
    let queue: any JobQueue
    /// The daemon's `--root`, which events are mapped onto.
    let root: StoreLocation
    let sources: any RenderSources
    let registry: BucketRegistry
    let metrics: ServerMetrics

    static let deletePrefix = "/v1/objects/"

    /// Commits a job per object of a declared bucket under the root; the others are counted and ignored.
    func events(_ request: HTTPRequest) throws(AnswerError) -> HTTPReply {
        try request.checkBodyKept(tooLarge: "the event body is over the server's limit")
        let event = try AnswerError.catching { () throws(VariantsError) in
            try StorageEvent(body: try request.body.bytes())
        }
        var jobs: [NewJob] = []
        var ignored = event.ignored
        for change in event.changes {
            let source = change.source(under: root)
            if let source { sources.forgetIdentity(of: source) }
            guard let source, let job = try? job(source, version: change.version) else {
                ignored += 1
                continue
            }
            jobs.append(job)
        }
        metrics.countEvents(queued: jobs.count, ignored: ignored)
        let (queued, skipped) = (jobs.count, ignored)
        return commit(jobs) { added in
            ["queued": .integer(queued), "added": .integer(added), "ignored": .integer(skipped)]
        }
    }

    /// `DELETE /v1/objects/<bucket>/<path>`, for a storage server that calls rather than sends events.
    func deletion(_ request: HTTPRequest) throws(AnswerError) -> HTTPReply {
        let source = String(request.path.dropFirst(Self.deletePrefix.count))
        let job = try AnswerError.catching { () throws(VariantsError) -> NewJob in
            try request.checkNoNUL()
            try ObjectFolder.checkRelative(source)
            let job = try self.job(source, version: "deleted:" + String(Timestamp.now.milliseconds))
            sources.forgetIdentity(of: source)
            return job
        }
        return commit([job]) { _ in ["queued": .integer(1)] }
    }

    /// The job that looks at `source` (`<bucket>/<path>` under the root).
    ///
    /// - Throws: `404 not_found` when no declared bucket holds it; `400 invalid_request` for a name a job
    ///   cannot take.
    private func job(_ source: String, version: String) throws(VariantsError) -> NewJob {
        guard let (bucket, path) = StorageChange.split(source), registry.bucket(named: bucket) != nil else {
            throw VariantsError(.notFound, "no declared bucket holds '\(source)'")
        }
        return try NewJob(
            request: ObjectRequest(bucket: bucket, path: path), version: version, source: source)
    }

    /// Answers 202 once `jobs` are committed; 503 with `Retry-After` when the queue cannot take them, so the
    /// sender tries again.
    private func commit(_ jobs: [NewJob], body: @escaping @Sendable (Int) -> [String: JSONScalar])
        -> HTTPReply
    {
        let queue = queue
        return .later {
            do throws(QueueError) {
                let added = jobs.isEmpty ? 0 : try await queue.enqueue(batch: jobs).added
                return .json(body(added), status: 202)
            } catch {
                return .error(
                    .service(
                        ServiceError(
                            .transformBusy, "the job queue cannot take the changes now: \(error.message)")),
                    headers: [("Retry-After", "5")])
            }
        }
    }
}
