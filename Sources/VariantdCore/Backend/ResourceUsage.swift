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

    private static var current: rusage {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage
    }
}
