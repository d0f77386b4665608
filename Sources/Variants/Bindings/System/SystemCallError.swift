#if canImport(Glibc)
    import Glibc
#endif

/// A system call that failed: which call, the error number it left, and what it was about (a path, a
/// program, a thread). Every POSIX failure takes this one shape, whichever error of its own layer then
/// carries it; callers decide by `call` and `code`, and the text, from `strerror`, is for diagnostics only.
package struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    package var call: String
    /// The `errno` value, or the error number the call answered itself (as `posix_spawn` does).
    package var code: Int32
    package var subject: String?

    /// `code` defaults to `errno`, read here: build the error right after the call failed.
    package init(_ call: String, code: Int32 = errno, about subject: String? = nil) {
        self.call = call
        self.code = code
        self.subject = subject
    }

    /// What went wrong after the call's name: the subject, then the system's words and the number.
    package var detail: String {
        let reason = "\(String(cString: strerror(code))) (errno \(code))"
        return subject.map { "\($0): \(reason)" } ?? reason
    }

    package var description: String { "\(call): \(detail)" }

    /// Whether the file system had no room: the disk is full or the writer's quota spent.
    package static func isOutOfSpace(_ code: Int32?) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    /// Whether the file system refuses every write for now: it is read-only, or its device fails.
    package static func isUnwritable(_ code: Int32?) -> Bool {
        code == EROFS || code == EIO
    }

    /// Whether the name leads nowhere (`ENOENT`, `ENOTDIR`): the only open failures that say an object is
    /// gone rather than that the host cannot reach it now.
    package static func isMissing(_ code: Int32?) -> Bool {
        code == ENOENT || code == ENOTDIR
    }

    /// Whether the process or the system ran out of descriptors: nothing is wrong with the file or the file
    /// system, and the same write succeeds once some are closed.
    package static func isOutOfDescriptors(_ code: Int32?) -> Bool {
        code == EMFILE || code == ENFILE
    }

    /// The symbolic name of an error number a write can leave (`ENOSPC`), for metrics' labels; others
    /// read `errno_N`.
    package static func name(of code: Int32) -> String {
        let names: [Int32: String] = [
            ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EROFS: "EROFS", EIO: "EIO", EACCES: "EACCES", EPERM: "EPERM",
            EFBIG: "EFBIG", EMFILE: "EMFILE", ENFILE: "ENFILE", ENOMEM: "ENOMEM", ENOENT: "ENOENT",
        ]
        return names[code] ?? "errno_\(code)"
    }
}
