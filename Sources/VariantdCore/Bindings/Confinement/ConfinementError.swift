import Variants

/// A kernel refused to confine a decoder child; the child then exits rather than decode unconfined.
struct ConfinementError: Error, CustomStringConvertible {
    /// The confinement that failed: `no new privileges`, `Landlock` or `seccomp`.
    let step: String
    let failure: SystemCallError

    var description: String { "\(step): \(failure)" }
}
