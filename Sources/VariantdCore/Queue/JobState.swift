/// Where a job is in its life. `available` and `running` are the only states a job leaves; the others are
/// final, and a final job is never claimed again.
public enum JobState: String, Sendable, Codable, CaseIterable {
    /// Waiting to be claimed, now or at its `scheduledAt` (a retry waits out its backoff here).
    case available
    /// Claimed by a worker holding an unexpired lease.
    case running
    /// Processed: the result is the completion metadata.
    case completed
    /// The picture cannot be rendered (422), decided on the first try or after the decoder crashed or timed
    /// out twice on it.
    case unreadable
    /// Refused for a reason retrying cannot change: unsupported type, too large, missing, bad declaration.
    case failed
    /// A transient failure that was still failing after the last attempt.
    case discarded

    public var isFinal: Bool {
        switch self {
        case .available, .running: false
        case .completed, .unreadable, .failed, .discarded: true
        }
    }

    /// The final states, for SQL `IN (…)` lists.
    static let finalStates = allCases.filter(\.isFinal)
}
