import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's limits on what this process may use (`setrlimit`), which a decoder child puts on itself.
///
/// A limit is never set above the hard limit in force: raising that takes `CAP_SYS_RESOURCE`, which a service
/// run under a `LimitCPU=` or `LimitNOFILE=` of its own does not have, and a refused call would leave the
/// limit where it was. Below the hard limit every call takes effect, and one that does not is an error.
public enum ResourceLimit: String {
    case coreFileBytes = "RLIMIT_CORE"
    case addressSpaceBytes = "RLIMIT_AS"
    case openFiles = "RLIMIT_NOFILE"
    case cpuSeconds = "RLIMIT_CPU"

    /// Lifts this process's descriptor limit to the hard one, as nginx and Go programs do. The soft 1024
    /// exists for `select`, which nothing here uses, and a full descriptor table is fatal beyond our own
    /// errors: libdispatch stops the process when its thread-pool monitor cannot open /proc/<thread>/stat.
    /// A decoder child lowers its own limit again.
    public static func liftOpenFiles() {
        guard let limit = try? openFiles.read() else { return }
        let lifted = min(limit.rlim_max, 1 << 20)
        if limit.rlim_cur < lifted { try? openFiles.move(to: Int(lifted)) }
    }

    /// Sets the limit for good: a process cannot raise its hard limit again.
    func fix(at value: Int) throws(SystemCallError) {
        try set(value, lowersMaximum: true)
    }

    /// Sets the limit the kernel enforces and leaves the hard one where it is, so that it can be moved on.
    func move(to value: Int) throws(SystemCallError) {
        try set(value, lowersMaximum: false)
    }

    private func set(_ value: Int, lowersMaximum: Bool) throws(SystemCallError) {
        var limit = try read()
        let wanted = rlim_t(max(0, value))
        let maximum = lowersMaximum ? min(wanted, limit.rlim_max) : limit.rlim_max
        limit = rlimit(rlim_cur: min(wanted, maximum), rlim_max: maximum)
        guard setrlimit(resource, &limit) == 0 else { throw SystemCallError("setrlimit", about: rawValue) }
    }

    private func read() throws(SystemCallError) -> rlimit {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { throw SystemCallError("getrlimit", about: rawValue) }
        return limit
    }

    private var resource: __rlimit_resource_t {
        let resource =
            switch self {
            case .coreFileBytes: RLIMIT_CORE
            case .addressSpaceBytes: RLIMIT_AS
            case .openFiles: RLIMIT_NOFILE
            case .cpuSeconds: RLIMIT_CPU
            }
        return __rlimit_resource_t(resource.rawValue)
    }
}
