import Variants

/// Runs an admitted job in a decoder child and turns its outcome into the answer, the log line and the
/// metrics.
struct JobRunner: Sendable {
    let pool: PipelinePool
    let metrics: ServerMetrics

    /// - Parameter policy: The bucket's, narrowed by the job's ceilings.
    func run(_ job: JobRequest, bucket: BucketDeclaration, policy: BucketPolicy) async -> HTTPResponse {
        let started = ContinuousClock.now
        let source: RenditionSource =
            switch job.source {
            case .stored(let key): .stored(key)
            case .uploaded(let body): .inHand(body)
            }
        let answer = await pool.fulfil(
            RenditionOrder(job.object, bucket: bucket).holding(to: policy), from: source)
        metrics.setDecoderCrashes(await pool.crashes)
        let (whole, fraction) = started.duration(to: .now).components
        finish(JobRecord(request: job, answer: answer, seconds: Double(whole) + Double(fraction) * 1e-18))
        switch answer.outcome {
        case .success(let metadata): return .json(metadata)
        case .failure(let error) where error.code == .storeUnavailable:
            // The object store is away: the caller is told to come back, as when every slot is taken.
            return .error(error, headers: [("Retry-After", "5")])
        case .failure(let error): return .error(error)
        }
    }

    /// Logs and counts a job, run or refused.
    func finish(_ record: JobRecord) {
        metrics.record(record)
        EventLog.write(record)
    }
}
