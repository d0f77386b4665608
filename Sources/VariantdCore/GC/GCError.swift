import Foundation

/// Why a `gc` run stopped, and the exit status that says so. A run that stops before its sweep has removed
/// nothing: a source it could not see might be what keeps renditions alive.
struct GCError: Error, Sendable, CustomStringConvertible {
    var status: ExitStatus
    var description: String

    init(_ status: ExitStatus, _ description: String) {
        self.status = status
        self.description = description
    }

    /// A part of `--root` not walked: its cause decides the status (a store that did not answer is
    /// `EX_TEMPFAIL`, as for `batch`).
    init(_ problem: WalkProblem) {
        self.init(
            problem.cause.exitStatus, problem.description.replacingOccurrences(of: "; left out", with: ""))
    }

    /// An object-storage call that failed after its retries.
    init(_ error: S3Error) {
        let status: ExitStatus =
            switch error.kind {
            case .unavailable: .temporaryFailure
            case .denied: .noPermission
            case .notFound, .tooLarge, .rejected, .configuration, .invalidResponse, .localFile: .ioError
            }
        self.init(status, "object storage: \(error)")
    }

    /// The state file could not be read or written; a busy one may be free on the next run.
    init(state file: String, _ error: QueueError) {
        self.init(error.busy ? .temporaryFailure : .ioError, "the state file \(file): \(error)")
    }
}
