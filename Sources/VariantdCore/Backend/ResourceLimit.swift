#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's limits on what this process may use (`setrlimit`), which a decoder child puts on itself.
enum ResourceLimit {
    case coreFileBytes
    case addressSpaceBytes
    case openFiles
    case cpuSeconds

    /// Sets the limit for good: a process cannot raise its hard limit again.
    func fix(at value: Int) {
        set(current: rlim_t(value), maximum: rlim_t(value))
    }

    /// Sets the limit the kernel enforces, and leaves the hard one unlimited so that it can be moved on.
    func move(to value: Int) {
        set(current: rlim_t(value), maximum: rlim_t.max)
    }

    private func set(current: rlim_t, maximum: rlim_t) {
        let resource =
            switch self {
            case .coreFileBytes: RLIMIT_CORE
            case .addressSpaceBytes: RLIMIT_AS
            case .openFiles: RLIMIT_NOFILE
            case .cpuSeconds: RLIMIT_CPU
            }
        var limit = rlimit(rlim_cur: current, rlim_max: maximum)
        setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
    }
}
