/// What the client tries again and how often: a network error, a 5xx, a 429 or a transient error code, up to
/// 4 tries in all, exponential from 100 ms and capped at 2 s, each wait drawn between half and all of it so
/// that many workers do not come back in step. Other 4xx answers are never retried.
enum S3Retry {
    static let schedule = RetrySchedule(
        tries: 4, first: .milliseconds(100), cap: .seconds(2), jitter: 0.5...1)

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
}
