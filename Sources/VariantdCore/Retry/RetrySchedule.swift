import Foundation

/// When to try a failed operation again: capped exponential waits, optionally jittered, for a number of
/// tries or until the caller stops. Object storage, the queue's write-back, a store outage under a lease and
/// callbacks all wait this way; each caller decides for itself which failures are worth another try.
struct RetrySchedule: Sendable, Equatable {
    /// Tries in all, the first included; nil tries until the caller gives up.
    var tries: Int?
    /// The wait after the first failed try.
    var first: Duration
    /// How much longer each wait is than the one before.
    var factor: Double = 2
    /// The longest wait.
    var cap: Duration
    /// The range each wait is scaled by, drawn anew every time, so that many clients that failed together do
    /// not come back in step.
    var jitter: ClosedRange<Double> = 1...1

    /// What one try leaves: done with a value, or failed in a way worth another try, with the value to
    /// answer if none is left.
    enum Step<Value> {
        case done(Value)
        case retry(Value)
    }

    /// Whether another try follows failed try number `attempt` (counted from 1).
    func allowsRetry(after attempt: Int) -> Bool {
        tries.map { attempt < $0 } ?? true
    }

    /// The wait after failed try number `attempt` (counted from 1), before jitter.
    func ceiling(after attempt: Int) -> Duration {
        let grown = (first / .seconds(1)) * pow(factor, Double(max(0, attempt - 1)))
        return .seconds(min(cap / .seconds(1), grown))
    }

    /// The wait after failed try number `attempt` (counted from 1).
    func delay(after attempt: Int) -> Duration {
        ceiling(after: attempt) * Double.random(in: jitter)
    }

    /// Calls `body` until it is done, the tries are spent or the task is cancelled while waiting; answers the
    /// last value `body` gave.
    func run<Value>(_ body: () async -> Step<Value>) async -> Value {
        var attempt = 1
        while true {
            switch await body() {
            case .done(let value): return value
            case .retry(let value):
                guard allowsRetry(after: attempt) else { return value }
                do {
                    try await Task.sleep(for: delay(after: attempt))
                } catch {
                    return value
                }
                attempt += 1
            }
        }
    }
}
