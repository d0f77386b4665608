#if canImport(Glibc)
    import Glibc
#endif

/// A C library call that failed: which shim call, and the library's own words (for diagnostics only).
///
/// Callers decide what a failure means by *which* call failed; `message` is never matched.
package struct BackendError: Error, Sendable, CustomStringConvertible {
    package var call: String
    package var message: String

    package init(call: String, message: String) {
        self.call = call
        self.message = message
    }

    package var description: String { "\(call): \(message)" }

    /// The failure `errno` names, read right after the POSIX call that failed; `subject` (a path) leads the
    /// message.
    static func posix(_ call: String, _ subject: String? = nil) -> BackendError {
        let reason = String(cString: strerror(errno))
        return BackendError(call: call, message: subject.map { "\($0): \(reason)" } ?? reason)
    }
}
