import Synchronization

/// One process's allowance of retries of one kind of request: each retry spends `retryCost` tokens; a
/// request that succeeds at its first try earns one back, and one that succeeds after retries earns back
/// what they cost, up to `capacity`. While a store answers most requests, even slowly, retries cost
/// nothing in the long run; when it fails them all, the process stops retrying after
/// `capacity / retryCost` retries and fails at once, so that an outage is not met with every request's
/// every try from every worker at once (a retry storm). The AWS SDKs' standard retry mode keeps one such
/// quota per client.
final class RetryBudget: Sendable {
    /// Object storage's, shared by every client of the process.
    static let objectStorage = RetryBudget()

    let capacity: Int
    let retryCost: Int
    private let state = Mutex((tokens: 0, refused: 0))

    init(capacity: Int = 500, retryCost: Int = 5) {
        self.capacity = capacity
        self.retryCost = retryCost
        state.withLock { $0.tokens = capacity }
    }

    /// Takes the tokens of one retry; false, and counted, when too few are left: the caller gives up now.
    func spendRetry() -> Bool {
        state.withLock { state in
            guard state.tokens >= retryCost else {
                state.refused += 1
                return false
            }
            state.tokens -= retryCost
            return true
        }
    }

    /// A request succeeded after `retries` retries: their cost back, or one token for a first try.
    func earn(retries: Int = 0) {
        state.withLock { $0.tokens = min(capacity, $0.tokens + (retries > 0 ? retries * retryCost : 1)) }
    }

    /// Retries refused so far for want of tokens.
    var refusedRetries: Int { state.withLock { $0.refused } }
}
