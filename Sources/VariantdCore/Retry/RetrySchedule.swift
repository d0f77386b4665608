import Foundation

/// When to try a failed operation again: growing waits up to a cap, optionally jittered, for a number of
/// tries or until the caller stops. Object storage, the queue's write-back, a store outage under a lease,
/// callbacks and the queue's job attempts all wait this way; each caller decides for itself which failures
/// are worth another try.
struct RetrySchedule: Sendable, Equatable {
    /// How the waits grow from `first`, after failed try number n.
    enum Growth: Sendable, Equatable {
        /// `first × factor^(n − 1)`.
        case exponential(factor: Double)
        /// `first × n^exponent`: each wait a smaller multiple of the one before.
        case power(Double)
    }

    /// Tries in all, the first included; nil tries until the caller gives up.
    var tries: Int?
    /// The wait after the first failed try.
    var first: Duration
    var growth = Growth.exponential(factor: 2)
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
        let number = Double(max(1, attempt))
        let scale =
            switch growth {
            case .exponential(let factor): pow(factor, number - 1)
            case .power(let exponent): pow(number, exponent)
            }
        return .seconds(min(cap / .seconds(1), (first / .seconds(1)) * scale))
    }

    /// The wait after failed try number `attempt` (counted from 1).
    func delay(after attempt: Int) -> Duration {
        ceiling(after: attempt) * Double.random(in: jitter)
    }

    /// Calls `body` until it is done, the tries are spent or the task is cancelled while waiting; answers the
    /// last value `body` gave. It runs in the caller's isolation, so an actor's `body` may change its state.
    func run<Value>(isolation: isolated (any Actor)? = #isolation, _ body: () async -> Step<Value>) async
        -> Value
    {
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

    /// `run` for a caller that blocks its thread for the whole operation (libcurl's transfers): the waits
    /// block it too, and nothing cancels them. Each retry is also paid from `budget`, when one is given, and
    /// none follows once it is spent.
    func runBlocking<Value>(budget: RetryBudget? = nil, _ body: () -> Step<Value>) -> Value {
        var attempt = 1
        while true {
            switch body() {
            case .done(let value): return value
            case .retry(let value):
                guard allowsRetry(after: attempt), budget?.spendRetry() ?? true else { return value }
                Thread.sleep(forTimeInterval: delay(after: attempt) / .seconds(1))
                attempt += 1
            }
        }
    }
}
