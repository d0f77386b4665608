internal import CThreadProbe
import Foundation
import Variants

/// What one thread of another process may open, seen from outside it (`CThreadProbe`, through ptrace).
enum ThreadProbe {
    /// The probe suspends the thread's seccomp filter, which takes CAP_SYS_ADMIN, traces a process that is
    /// not its own child, which takes CAP_SYS_PTRACE, and its register work is x86-64's.
    static var isAvailable: Bool {
        #if arch(x86_64)
            let effective = (try? ProcessStatus.field("CapEff", of: "/proc/self/status")) ?? ""
            let needed: UInt64 = 1 << 21 | 1 << 19
            return (UInt64(effective, radix: 16) ?? 0) & needed == needed
        #else
            return false
        #endif
    }

    /// What `openat(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY)` returns when `thread` makes it with its seccomp
    /// filter suspended: a descriptor (closed again at once), or `-errno` when the kernel refused. A thread
    /// that makes no system call within `limit` is an error (`ETIMEDOUT`), not a test that never ends.
    static func openRoot(in thread: Int32, limit: Duration = .seconds(60)) throws(SystemCallError) -> Int {
        let result = tp_open_root_in_thread(thread, Int32(limit / .milliseconds(1)))
        guard result > -1000 else {
            throw SystemCallError("ptrace", code: Int32(-1000 - result), about: "thread \(thread)")
        }
        return result
    }
}
