#if canImport(Glibc)
    import Glibc
#endif

/// What this process has used so far, as the kernel counts it (`getrusage`).
package enum ResourceUsage {
    /// CPU time on every thread together, user and system, in whole seconds.
    static var cpuSeconds: Int {
        let usage = current
        return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
    }

    /// The peak resident set, in KiB.
    package static var peakResidentKiB: Int { current.ru_maxrss }

    /// CPU time, user and system, of every child process ended and waited for so far, and of theirs that they
    /// waited for: what a command run to its end cost is the difference of two readings around it.
    package static var endedChildrenCPUSeconds: Double {
        let usage = usage(of: RUSAGE_CHILDREN)
        return [usage.ru_utime, usage.ru_stime].reduce(0) {
            $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6
        }
    }

    private static var current: rusage { usage(of: RUSAGE_SELF) }

    private static func usage(of who: __rusage_who) -> rusage {
        var usage = rusage()
        getrusage(__rusage_who_t(who.rawValue), &usage)
        return usage
    }
}
