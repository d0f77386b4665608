/// The payload of `NOTIFY variantd_job_finished`: which job became final, and its result when the whole
/// notice fits PostgreSQL's 8000-byte payload limit (otherwise the listener reads the row by id).
struct FinishedNotice: Encodable {
    var id: Int64
    var state: JobState
    /// The job's key, left out with the result when even it passes the limit: its columns are unbounded
    /// (a version, or anything a plain-SQL enqueue writes), and a notice that does not fit fails the
    /// statement sending it — a rescue rolled back every time, a finish reported failed after its commit.
    var bucket: String?
    var path: String?
    var version: String?
    var job: Job?

    /// Payloads must stay under 8000 bytes; keep a margin.
    static let payloadLimit = 7900

    init(_ job: Job) {
        id = job.id
        state = job.state
        bucket = job.bucket
        path = job.path
        version = job.version
        self.job = job
    }

    /// The fullest form that fits: with the result, else with the key, else the id and state alone.
    func payload() throws(QueueError) -> String {
        do {
            var notice = self
            var text = try WireJSON.line(notice)
            guard text.utf8.count > Self.payloadLimit else { return text }
            notice.job = nil
            text = try WireJSON.line(notice)
            guard text.utf8.count > Self.payloadLimit else { return text }
            (notice.bucket, notice.path, notice.version) = (nil, nil, nil)
            return try WireJSON.line(notice)
        } catch {
            throw QueueError("the finished notice cannot be encoded: \(error)")
        }
    }
}
