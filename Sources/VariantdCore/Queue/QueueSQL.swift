import Variants

/// SQL fragments both backends share: the state lists, written from `JobState` so the schema's CHECK
/// constraints and the statements cannot drift from the Swift enum.
enum QueueSQL {
    static let allStates = list(JobState.allCases)
    static let finalStates = list(JobState.finalStates)

    private static func list(_ states: [JobState]) -> String {
        "(" + states.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    }

    /// The other job a finish may still change besides the one its lease holds: one whose lease expired and
    /// was rescued back to `available` (the attempt logged `lease_expired`) and that nobody has claimed since
    /// (`attempts` counts every claim). Its worker was cut off from the database, not gone, and its work is
    /// done; no other lease was handed out, so taking it still finishes the job once. A rescue that made the
    /// job final is not undone: that was its finish, already announced. `job` names the jobs table in the
    /// statement, `attempt` and `token` the lease's values.
    static func rescuedUnclaimed(job: String, attempt: String, token: String) -> String {
        """
        \(job).state = 'available' AND \(job).attempts = \(attempt) AND EXISTS (
            SELECT 1 FROM variantd_job_attempts WHERE token = \(token) AND outcome = 'lease_expired')
        """
    }

    /// That no older job of the same object is still waiting or running, for `job` the jobs table in a
    /// claim: an object's jobs then run one at a time, in order. The look-up is the dedupe index's prefix.
    static func oldestOfItsObject(_ job: String) -> String {
        """
        NOT EXISTS (
            SELECT 1 FROM variantd_jobs older WHERE older.bucket = \(job).bucket AND older.path = \(job).path
                AND older.state IN ('available', 'running') AND older.id < \(job).id)
        """
    }

    /// The statement behind `JobQueue.stateCounts()`, in both dialects.
    static let stateCounts = "SELECT state, count(*) FROM variantd_jobs GROUP BY state"

    /// Reads its rows: a state and a count each.
    static func stateCounts(_ rows: [[String?]]) -> [JobState: Int] {
        var counts: [JobState: Int] = [:]
        for row in rows where row.count == 2 {
            if let state = row[0].flatMap(JobState.init(rawValue:)), let count = row[1].flatMap({ Int($0) }) {
                counts[state] = count
            }
        }
        return counts
    }

    /// The stored form of an attempt's outcome: the metadata JSON or the error JSON.
    static func resultJSON(_ outcome: Result<CompletionMetadata, VariantsError>) throws(QueueError)
        -> String
    {
        do {
            switch outcome {
            case .success(let value): return try WireJSON.line(value)
            case .failure(let error): return try WireJSON.line(error)
            }
        } catch {
            throw QueueError("a job result cannot be encoded: \(error)")
        }
    }
}
