#if canImport(Glibc)
    import Glibc
#endif

/// What a decoder child does to itself before it reads its first job: no core dumps, a cap on its
/// address space, and its standard output kept for the protocol alone.
enum ChildConfinement {
    /// Address space a child may map: a 200-megapixel HEIC decode with its libvips threads fits in 4 GiB.
    static let addressSpace: rlim_t = 4 << 30

    /// Applies the limits and returns the file descriptor answers must be written to.
    static func apply() -> Int32 {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        var space = rlimit(rlim_cur: addressSpace, rlim_max: addressSpace)
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space)
        // A C library that prints to stdout must not corrupt the protocol: answers go to a private copy
        // of the original descriptor, and stdout itself now points at stderr.
        let answers = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return answers
    }

    /// This process's peak resident set, in KiB.
    static var peakResidentKiB: Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    /// Writes one whole line to the answer descriptor.
    static func write(_ line: [UInt8], to descriptor: Int32) {
        var remaining = line[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { exit(EXIT_FAILURE) }
            remaining = remaining.dropFirst(written)
        }
    }
}
