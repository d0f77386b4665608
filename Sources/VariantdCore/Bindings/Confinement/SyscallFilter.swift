internal import CSeccomp
internal import CSyscallTrap
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// The seccomp filter a decoder child installs once its libraries and plugins are loaded (libseccomp, the
/// only file that calls it). What remains is what decoding a picture from bytes already in memory needs:
/// reading and writing descriptors it already holds, memory, threads, futexes, clocks, signals to itself and
/// exit; and, under Landlock, opening the system's fonts read-only. Every other call — an `open` for writing
/// (or any `open` without Landlock), `socket`, `connect`, `execve`, `fork`, `ptrace`, `mount`, `bpf`,
/// … — is never made, and the process dies by SIGSYS, so a decoder exploit cannot write a file, read one but a
/// font, or reach the network or another program. On its way the process tells its parent which call it was
/// (`Refusal`), so that an operator can tell a hostile file from a library that needs a call the filter does
/// not allow.
enum SyscallFilter {
    /// Calls allowed whatever their arguments. Names absent on an architecture are skipped.
    static let allowed = [
        // Descriptors the child holds: its pipes, stderr.
        "read", "readv", "write", "writev", "close", "fstat", "newfstatat", "statx", "lseek", "fcntl",
        "poll", "ppoll", "getpeername",
        // The event loop of libdispatch, which Swift's runtime and Foundation start.
        "epoll_wait", "epoll_pwait", "epoll_ctl", "timerfd_settime",
        // Memory.
        "brk", "mmap", "munmap", "mremap", "mprotect", "madvise",
        // Threads and their synchronisation (thread creation itself is checked below).
        "futex", "set_robust_list", "rseq", "set_tid_address", "sched_yield", "sched_getaffinity",
        "getcpu",
        // Signals to itself, time, identity, randomness, resource accounting.
        "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
        // Where libdispatch parks the main thread for good; a signal it handles (the Landlock round sends
        // one to every thread) makes it call again.
        "rt_sigsuspend",
        "clock_gettime", "clock_getres", "gettimeofday", "clock_nanosleep", "nanosleep",
        "getpid", "gettid", "getuid", "geteuid", "getgid", "getegid", "getrandom", "getrusage", "uname",
        // The machine's memory and load, read-only: a library on the alpha and animation paths asks for
        // it, so without it every picture with alpha ends in SIGSYS.
        "sysinfo",
        "exit", "exit_group",
    ]

    /// `PR_SET_NO_NEW_PRIVS`: no exec can ever grant this process more than it has. The kernel requires it
    /// of an unprivileged process before a seccomp filter or a Landlock domain.
    static func forbidNewPrivileges() throws(ConfinementError) {
        guard cs_no_new_privs() == 0 else {
            throw ConfinementError(
                step: "no new privileges", failure: SystemCallError("prctl", about: "PR_SET_NO_NEW_PRIVS"))
        }
    }

    /// A call the filter refused, as the dying child wrote it to its refusal pipe.
    struct Refusal: Sendable, Equatable, CustomStringConvertible {
        var number: Int32
        var architecture: UInt32

        /// Reads the record of `bytes`, if they hold one.
        init?(_ bytes: [UInt8]) {
            guard bytes.count >= MemoryLayout<cst_refusal>.size else { return nil }
            let record = bytes.withUnsafeBytes { $0.loadUnaligned(as: cst_refusal.self) }
            number = record.number
            architecture = UInt32(record.architecture)
        }

        /// The call's name as libseccomp knows it, when it does.
        var name: String? {
            guard let name = seccomp_syscall_resolve_num_arch(architecture, number) else { return nil }
            defer { free(name) }
            return String(cString: name)
        }

        var description: String { "\(name ?? "system call") (\(number))" }
    }

    /// Installs the filter on every thread of the process: a refused call traps, and the handler tells the
    /// parent which it was before the process dies by SIGSYS. `allowingReadOnlyOpens` when Landlock already
    /// limits what may be opened to the system's fonts.
    static func install(allowingReadOnlyOpens: Bool) throws(ConfinementError) {
        guard cst_report_refused_calls() == 0 else {
            throw ConfinementError(step: "seccomp", failure: SystemCallError("sigaction", about: "SIGSYS"))
        }
        guard let filter = seccomp_init(SCMP_ACT_TRAP) else {
            // libseccomp answers nil only when it cannot allocate the filter.
            throw ConfinementError(step: "seccomp", failure: SystemCallError("seccomp_init", code: ENOMEM))
        }
        defer { seccomp_release(filter) }
        try check(
            seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1), "seccomp_attr_set", "synchronising threads")
        for name in allowed {
            try rule(filter, name, SCMP_ACT_ALLOW)
        }
        // Threads, never processes: clone must carry CLONE_THREAD. clone3 passes its flags in memory a
        // filter cannot read, so it fails with ENOSYS and glibc falls back to clone.
        let thread = UInt64(CLONE_THREAD)
        try rule(filter, "clone", SCMP_ACT_ALLOW, [compare(0, SCMP_CMP_MASKED_EQ, thread, thread)])
        try rule(filter, "clone3", cs_act_errno(ENOSYS))
        // Signals only to itself (abort() raises SIGABRT through tgkill).
        try rule(filter, "tgkill", SCMP_ACT_ALLOW, [compare(0, SCMP_CMP_EQ, UInt64(getpid()))])
        // Its own resource limits (the CPU budget moves before every job).
        try rule(filter, "prlimit64", SCMP_ACT_ALLOW, [compare(0, SCMP_CMP_EQ, 0)])
        // Its own threads' priority (libdispatch resets it on a new worker).
        try rule(filter, "setpriority", SCMP_ACT_ALLOW, [compare(1, SCMP_CMP_EQ, 0)])
        // Thread names, which libvips' thread pool and dav1d set.
        for option in [PR_SET_NAME, PR_GET_NAME] {
            try rule(filter, "prctl", SCMP_ACT_ALLOW, [compare(0, SCMP_CMP_EQ, UInt64(option))])
        }
        // Font files, opened when a document's text needs them: read-only (no write access, creation,
        // truncation or appending), and only where Landlock lets a read reach. fontconfig asks whether a font
        // it picked is readable (`access` with `R_OK`) before Pango opens it.
        if allowingReadOnlyOpens {
            let writing = UInt64(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)
            try rule(filter, "openat", SCMP_ACT_ALLOW, [compare(2, SCMP_CMP_MASKED_EQ, writing, 0)])
            try rule(filter, "open", SCMP_ACT_ALLOW, [compare(1, SCMP_CMP_MASKED_EQ, writing, 0)])
            try rule(filter, "access", SCMP_ACT_ALLOW, [compare(1, SCMP_CMP_EQ, UInt64(R_OK))])
            try rule(filter, "faccessat", SCMP_ACT_ALLOW, [compare(2, SCMP_CMP_EQ, UInt64(R_OK))])
        }
        // Terminal queries glibc makes on stdio streams, answered "not a terminal" without asking.
        try rule(filter, "ioctl", cs_act_errno(ENOTTY), [compare(1, SCMP_CMP_EQ, UInt64(TCGETS))])
        try check(seccomp_load(filter), "seccomp_load", "loading the filter")
    }

    /// A condition on one argument; for `SCMP_CMP_MASKED_EQ` the first value is the mask.
    private static func compare(
        _ argument: UInt32, _ operation: scmp_compare, _ value: UInt64, _ masked: UInt64 = 0
    ) -> scmp_arg_cmp {
        scmp_arg_cmp(arg: argument, op: operation, datum_a: value, datum_b: masked)
    }

    private static func rule(
        _ filter: scmp_filter_ctx, _ name: String, _ action: UInt32, _ conditions: [scmp_arg_cmp] = []
    ) throws(ConfinementError) {
        let number = seccomp_syscall_resolve_name(name)
        guard number != __NR_SCMP_ERROR else { return }
        try check(
            seccomp_rule_add_array(filter, action, number, UInt32(conditions.count), conditions),
            "seccomp_rule_add_array", "allowing \(name)")
    }

    /// libseccomp answers 0, or an error number negated.
    private static func check(_ status: Int32, _ call: String, _ what: String) throws(ConfinementError) {
        guard status == 0 else {
            throw ConfinementError(
                step: "seccomp", failure: SystemCallError(call, code: -status, about: what))
        }
    }
}
