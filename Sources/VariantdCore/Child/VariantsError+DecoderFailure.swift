import Variants

extension VariantsError {
    /// The decoder child died or overran its deadline on this object, as opposed to answering (even with
    /// an error): the pool retries and quarantines on it, the queue counts it as a crash.
    var isDecoderFailure: Bool {
        reason == .decoderCrash || reason == .decoderTimeout
    }
}
