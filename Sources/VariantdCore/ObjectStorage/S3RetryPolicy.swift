/// How often and how long the client tries a request again after a network error, a 5xx, a 429 or
/// `SlowDown`: exponential from `base`, capped at `cap`, each delay drawn between half and all of it so that
/// many workers do not come back in step. Other 4xx answers are never retried.
struct S3RetryPolicy: Sendable {
    /// Tries in all, the first included.
    var attempts = 4
    var base: Duration = .milliseconds(100)
    var cap: Duration = .seconds(2)

    /// The wait before try number `attempt + 1` (`attempt` counts from 1).
    func delay(after attempt: Int) -> Duration {
        let exponential = base * (1 << min(attempt - 1, 20))
        let ceiling = min(cap, exponential)
        return ceiling * Double.random(in: 0.5...1.0)
    }
}
