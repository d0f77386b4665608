/// What a batch run has done so far: counters only, whatever the number of files.
struct BatchTally: Sendable, Equatable {
    var ok = 0
    var unreadable = 0
    var unsupported = 0
    var errors = 0
    /// Files whose result was already in the manifest.
    var skipped = 0
    /// Skipped files whose recorded result was unreadable or an error: `--strict` flags them as well.
    var skippedFailures = 0
    /// Errors that may pass on a later attempt; the next run retries them.
    var retryable = 0
    /// Directories or listing pages the walk could not read; their files are left out, so they count as
    /// errors.
    var unlisted = 0
    /// The gravest cause among them, which the run's exit status follows.
    var unlistedCause: WalkProblem.Cause?
    /// Source bytes read whole for decoding by the files processed: not those of skipped files, nor of files
    /// refused before they were read (over the read limit, gone, a store that did not answer).
    var bytes = 0
    /// Files under the folder, once the counting pass has finished.
    var total: Int?
    /// Files the manifest records as done under this run's declaration: a resume skips about that many,
    /// almost at once, so they are not work left.
    var recorded = 0

    /// Files processed in this run (skipped ones excluded).
    var processed: Int { ok + unreadable + unsupported + errors }

    /// Files with a result, processed or skipped: the progress bar's numerator.
    var done: Int { processed + skipped }

    /// Files still to be processed, once there is a total: neither done nor recorded by an earlier run (the
    /// recorded files not yet reached will be skipped).
    var remaining: Int? {
        total.map { max(0, $0 - done - max(0, recorded - skipped)) }
    }

    /// Errors of every kind: files that failed and directories that could not be listed.
    var allErrors: Int { errors + unlisted }

    /// What the progress line calls failures: unreadable pictures and errors (an unsupported type is not).
    var failures: Int { unreadable + allErrors }

    mutating func record(_ category: ResultCategory, bytes: Int, retryable: Bool = false) {
        switch category {
        case .ok: ok += 1
        case .unreadable: unreadable += 1
        case .unsupported: unsupported += 1
        case .error: errors += 1
        }
        self.bytes += bytes
        if retryable { self.retryable += 1 }
    }

    mutating func record(_ cause: WalkProblem.Cause) {
        unlisted += 1
        unlistedCause = max(unlistedCause ?? cause, cause)
    }

    mutating func recordSkipped(_ category: ResultCategory) {
        skipped += 1
        if category == .unreadable || category == .error { skippedFailures += 1 }
    }
}
