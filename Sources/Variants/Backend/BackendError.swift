/// A C library call that failed: which shim call, and the library's own words (for diagnostics only).
///
/// Callers decide what a failure means by *which* call failed; `message` is never matched.
struct BackendError: Error, Sendable, CustomStringConvertible {
    var call: String
    var message: String

    var description: String { "\(call): \(message)" }
}
