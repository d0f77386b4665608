import Foundation
import Variants

/// A part of a folder or an object-storage prefix that a walk could not list: a directory or entry left out,
/// or the rest of a listing. The run then has not covered its whole source, so `batch` and `enqueue --walk`
/// end with the status its cause calls for, the same for both.
struct WalkProblem: Sendable, Equatable, CustomStringConvertible {
    /// Why, in the order a run's status follows when it met several: a refusal is reported over the rest,
    /// since running again will not get past it.
    enum Cause: Sendable, Comparable {
        /// It may list on a later run: the store did not answer, or answered 5xx or 429, after every retry.
        case transient
        /// It will not list, for a reason other than access: a name not in UTF-8, a path too long, a listing
        /// answer that cannot be read.
        case unreadable
        /// Access was refused: credentials or a bucket the store refuses (401, 403, no such bucket), or a
        /// directory this user may not read.
        case refused

        /// `EX_TEMPFAIL`, `EX_NOINPUT` and `EX_NOPERM` of `sysexits.h`.
        var exitStatus: ExitStatus {
            switch self {
            case .transient: .temporaryFailure
            case .unreadable: .noInput
            case .refused: .noPermission
            }
        }
    }

    var cause: Cause
    /// The directory or entry left out (absolute), or the `s3://` location whose listing broke off.
    var location: String
    /// How far a listing got before it broke off; nil for a folder, whose walk goes on.
    var reached: Reached?
    var description: String

    struct Reached: Sendable, Equatable {
        /// Keys listed.
        var listed: Int
        /// The last of them, as an object path; nil when the first page failed.
        var stoppedAfter: String?
    }

    /// A folder's directory or entry that cannot be looked at; the walk goes on without it.
    init(folderEntry path: String, error: any Error) {
        cause = (error as? CocoaError)?.code == .fileReadNoPermission ? .refused : .unreadable
        location = path
        let why =
            cause == .refused
            ? "permission denied" : "a directory not listed, a name not in UTF-8, a path too long"
        description = "\(path) cannot be read (\(why)); left out"
    }

    /// A listing that broke off after `listed` keys, the last of them `stoppedAfter`; the walk ends there.
    init(listing location: S3Location, error: S3Error, listed: Int, stoppedAfter: String?) {
        switch error.kind {
        case .denied: cause = .refused
        case .unavailable: cause = .transient
        case .notFound, .tooLarge, .rejected, .configuration, .invalidResponse, .localFile:
            cause = .unreadable
        }
        self.location = location.description
        reached = Reached(listed: listed, stoppedAfter: stoppedAfter)
        let reached = stoppedAfter.map { "past '\($0)'" } ?? "at all"
        description = "\(location) cannot be listed \(reached) (\(error)); the rest is left out"
    }

    /// A line of an object list (`enqueue --from`) that names no object path; the reading goes on.
    init(listLine line: String) {
        cause = .unreadable
        location = line
        description = "\(line) cannot be read; left out"
    }

    /// What a manifest line says of it: a store that did not answer is `store_unavailable`, as it is for an
    /// object; anything else is not the input's fault.
    var error: VariantsError {
        VariantsError(cause == .transient ? .storeUnavailable : .internalError, description)
    }
}
