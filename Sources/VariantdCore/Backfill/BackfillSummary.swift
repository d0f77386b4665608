/// What `enqueue --walk` / `--from` did, printed as one JSON line at the end.
struct BackfillSummary: Sendable, Equatable, Codable {
    /// Object paths read from the listing.
    var listed = 0
    /// Jobs this run added.
    var added = 0
    /// Objects with a job already waiting or running, left alone.
    var alreadyQueued = 0
    /// Paths no worker could process (absolute, or climbing out of the store root), not enqueued.
    var refused = 0
    /// Directories, lines or listing pages that could not be read.
    var unreadable = 0
    /// The gravest cause among them, which the exit status follows (as for `batch`).
    var unreadableCause: WalkProblem.Cause?
    /// Why the run stopped before the end of the listing (the queue failed), if it did.
    var error: String?
    var seconds = 0.0

    mutating func record(_ cause: WalkProblem.Cause) {
        unreadable += 1
        unreadableCause = max(unreadableCause ?? cause, cause)
    }

    var jobsPerSecond: Double { seconds > 0 ? Double(added + alreadyQueued) / seconds : 0 }

    /// Everything listed is now in the queue (added now or before).
    var complete: Bool { error == nil && refused == 0 && unreadable == 0 }

    /// The terminal line: `enqueue: 120000 listed, 118000 added, 2000 already queued, 24100 jobs/s`.
    var progressText: String {
        "enqueue: \(listed) listed, \(added) added, \(alreadyQueued) already queued"
            + (refused > 0 ? ", \(refused) refused" : "") + ", \(Int(jobsPerSecond)) jobs/s"
    }

    enum CodingKeys: String, CodingKey {
        case listed, added, alreadyQueued, refused, unreadable, error, seconds
    }
}
