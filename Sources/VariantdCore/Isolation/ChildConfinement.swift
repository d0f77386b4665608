import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// What a decoder child does to itself before it reads its first job: no core dumps, caps on its address
/// space and open files, a CPU-time budget per job, and its standard output kept for the protocol alone;
/// then, once its libraries are loaded, `seal()`.
package enum ChildConfinement {
    /// Address space a child may map: a 200-megapixel HEIC decode with its libvips threads fits in 4 GiB.
    static let addressSpace: rlim_t = 4 << 30
    /// Open files: the pipes and what libraries open for themselves; a child opens no file per job.
    static let openFiles: rlim_t = 64
    /// CPU seconds one job may use, on every thread together; the kernel stops the child past it, even
    /// inside a C loop that would never look at the parent's wall-clock deadline.
    static let cpuSecondsPerJob: rlim_t = 120

    /// Applies the limits and returns the file descriptor answers must be written to.
    static func apply() -> Int32 {
        limit(RLIMIT_CORE, to: 0)
        limit(RLIMIT_AS, to: addressSpace)
        limit(RLIMIT_NOFILE, to: openFiles)
        // A C library that prints to stdout must not corrupt the protocol: answers go to a private copy
        // of the original descriptor, and stdout itself now points at stderr.
        let answers = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return answers
    }

    /// Gives up for good what decoding never needs, once start-up has loaded every library, plugin and
    /// codec: no new privileges, no filesystem at all (Landlock, where the kernel offers it), and only the
    /// system calls of `SyscallFilter` — any other kills the process with SIGSYS.
    static func seal() throws(ConfinementError) {
        try SyscallFilter.forbidNewPrivileges()
        _ = try Landlock.denyFileSystem()
        try SyscallFilter.install()
    }

    /// Hands the memory freed by a job back to the kernel when it is more than the allocator keeps for the
    /// next picture: glibc keeps freed heap pages mapped, so without this a child's resident set stays at its
    /// largest picture's for the rest of its life.
    static func returnMemory() {
        Heap.trim(keeping: Allocator.keptFreeMemory)
    }

    /// Moves the CPU-time limit to what this process has used so far plus one job's budget.
    static func startJobBudget() {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let used = rlim_t(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        var budget = rlimit(rlim_cur: used + cpuSecondsPerJob, rlim_max: rlim_t.max)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &budget)
    }

    private static func limit(_ resource: __rlimit_resource, to value: rlim_t) {
        var limit = rlimit(rlim_cur: value, rlim_max: value)
        setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }

    /// This process's peak resident set, in KiB.
    package static var peakResidentKiB: Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    /// Writes all of `bytes` to the answer descriptor.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { exit(EXIT_FAILURE) }
            remaining = remaining.dropFirst(written)
        }
    }
}
