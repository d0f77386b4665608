public import Variants

/// The outcome of one attempt, handed back to the queue under the attempt's lease.
public struct FinishedAttempt: Sendable, Equatable {
    public var lease: Lease
    public var outcome: Result<CompletionMetadata, VariantsError>

    public init(lease: Lease, outcome: Result<CompletionMetadata, VariantsError>) {
        self.lease = lease
        self.outcome = outcome
    }

    /// The crashes the job has counted once this attempt is, the attempt's own included.
    var crashes: Int {
        if case .failure(let error) = outcome, error.isDecoderFailure { return lease.crashes + 1 }
        return lease.crashes
    }
}
