/// How often and how long the client tries a request again after a network error, a 5xx, a 429 or a
/// transient error code: exponential from `base`, capped at `cap`, each delay drawn between half and all of
/// it so that many workers do not come back in step. Other 4xx answers are never retried.
struct S3RetryPolicy: Sendable {
    /// Tries in all, the first included.
    var attempts = 4
    var base: Duration = .milliseconds(100)
    var cap: Duration = .seconds(2)

    /// The error codes the AWS SDKs' standard retry mode takes for transient or throttling, whatever the
    /// status: S3 answers `400 RequestTimeout` when the connection went quiet mid-request, which the next try
    /// may not. Clock-skew codes (`RequestTimeTooSkewed`) are not among them: the SDKs retry those only after
    /// correcting their clock, and libcurl signs with the machine's.
    static let transientCodes: Set<String> = [
        "RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete", "SlowDown", "Throttling",
        "ThrottlingException", "ThrottledException", "RequestThrottled", "RequestThrottledException",
        "TooManyRequestsException", "ProvisionedThroughputExceededException",
        "TransactionInProgressException",
        "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException", "EC2ThrottledException",
    ]

    /// The wait before try number `attempt + 1` (`attempt` counts from 1).
    func delay(after attempt: Int) -> Duration {
        let exponential = base * (1 << min(attempt - 1, 20))
        let ceiling = min(cap, exponential)
        return ceiling * Double.random(in: 0.5...1.0)
    }
}
