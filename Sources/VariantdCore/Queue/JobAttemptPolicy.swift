public import Variants

/// What happens to a job after an attempt: shared by both backends so the state machine is the same.
///
/// The attempts are the job's, counted and scheduled in the queue's tables across workers and restarts rather
/// than by a loop in one process; the waits between them are a `RetrySchedule`'s: transient errors retry with
/// a capped backoff, `min(cap, unit × attempt⁴)` ± 10 % jitter (River's curve), until `maxAttempts`.
/// Deterministic outcomes are final at once. A decoder that crashes or overruns its deadline twice on one job
/// makes it `unreadable`, instead of retrying a poison file forever. A store outage (away, read-only or
/// full) spends no attempt.
public struct JobAttemptPolicy: Sendable, Equatable {
    /// Attempts given to a job enqueued without its own limit.
    public var maxAttempts: Int
    /// Decoder crashes or timeouts after which a job is `unreadable`.
    public var maxCrashes: Int
    public var backoffUnit: Duration
    public var backoffCap: Duration

    public init(
        maxAttempts: Int = 5, maxCrashes: Int = 2, backoffUnit: Duration = .seconds(1),
        backoffCap: Duration = .seconds(300)
    ) {
        self.maxAttempts = maxAttempts
        self.maxCrashes = maxCrashes
        self.backoffUnit = backoffUnit
        self.backoffCap = backoffCap
    }

    /// Where an attempt leaves a job.
    public enum Disposition: Sendable, Equatable {
        case final(JobState)
        case retry(after: Duration)
        /// Back to `available` with the attempt given back (the limit grows by one; claims are still
        /// counted, one row each in the attempt log): it never reached the picture.
        case release(after: Duration)

        /// The job's attempt limit once an attempt under `limit` is written back with this disposition.
        func maxAttempts(after limit: Int) -> Int {
            if case .release = self { return limit + 1 }
            return limit
        }
    }

    /// Decides from the attempt's outcome, the attempt number (1-based) and the crashes counted so far,
    /// this attempt's included.
    public func disposition(
        of outcome: Result<CompletionMetadata, VariantsError>, attempt: Int, maxAttempts: Int,
        crashes: Int
    ) -> Disposition {
        let error: VariantsError
        switch outcome {
        case .success: return .final(.completed)
        case .failure(let failure): error = failure
        }
        // A worker writes an outage back only when stopped while waiting it out under its lease.
        if error.code.isStoreOutage { return .release(after: backoff(1)) }
        if error.isDecoderFailure {
            // Fewer deaths than `maxCrashes` are transient (load or a stop can kill a child): out of
            // attempts, they discard the job as another transient error does, not call the picture unreadable.
            guard crashes < maxCrashes else { return .final(.unreadable) }
        } else if error.code == .unreadablePicture {
            return .final(.unreadable)
        } else if !error.code.isTransient {
            return .final(.failed)
        }
        return attempt >= maxAttempts ? .final(.discarded) : .retry(after: backoff(attempt))
    }

    /// Where a job goes when its worker's lease expired without a finish (the worker died or hung).
    public func dispositionOfExpiredLease(attempt: Int, maxAttempts: Int) -> Disposition {
        attempt >= maxAttempts ? .final(.discarded) : .retry(after: backoff(attempt))
    }

    /// The error recorded on a job whose lease expired.
    static let leaseExpired = VariantsError(
        .internalError, "the worker holding the job stopped renewing its lease before finishing")

    /// The wait before the next attempt, with jitter so retries of a burst do not arrive together.
    public func backoff(_ attempt: Int) -> Duration {
        RetrySchedule(tries: nil, first: backoffUnit, growth: .power(4), cap: backoffCap, jitter: 0.9...1.1)
            .delay(after: attempt)
    }
}
