/// A C library call that failed: which shim call, and the library's own words (for diagnostics only).
///
/// Callers decide what a failure means by *which* call failed; `message` is never matched.
package struct BackendError: Error, Sendable, CustomStringConvertible {
    package var call: String
    package var message: String
    /// The `errno` of a POSIX call that failed; nil for a library's own failure.
    package var errorNumber: Int32?

    package init(call: String, message: String, errorNumber: Int32? = nil) {
        self.call = call
        self.message = message
        self.errorNumber = errorNumber
    }

    package var description: String { "\(call): \(message)" }

    /// A POSIX call that failed, named by its call.
    package init(_ failure: SystemCallError) {
        self.init(call: failure.call, message: failure.detail, errorNumber: failure.code)
    }

    /// The failure `errno` names, read right after the POSIX call that failed, about `subject` (a path).
    static func posix(_ call: String, _ subject: String? = nil) -> BackendError {
        BackendError(SystemCallError(call, about: subject))
    }
}
