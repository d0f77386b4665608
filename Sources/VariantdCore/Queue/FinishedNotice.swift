/// The payload of `NOTIFY variantd_job_finished`: which job became final, and its result when the whole
/// notice fits PostgreSQL's 8000-byte payload limit (otherwise the listener reads the row by id).
struct FinishedNotice: Encodable {
    var id: Int64
    var state: JobState
    var bucket: String
    var path: String
    var version: String
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

    func payload() throws(QueueError) -> String {
        do {
            let full = try WireJSON.line(self)
            guard full.utf8.count > Self.payloadLimit else { return full }
            var brief = self
            brief.job = nil
            return try WireJSON.line(brief)
        } catch {
            throw QueueError("the finished notice cannot be encoded: \(error)")
        }
    }
}
