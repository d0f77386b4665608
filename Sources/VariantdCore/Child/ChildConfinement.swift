import Variants

/// What a decoder child does to itself before it reads its first job: no core dumps, caps on its address
/// space and open files, a CPU-time budget per job, and its standard output kept for the protocol alone;
/// then, once its libraries are loaded, `seal()`.
enum ChildConfinement {
    /// Address space a child may map: a 200-megapixel HEIC decode with its libvips threads fits in 4 GiB.
    static let addressSpace = 4 << 30
    /// Open files: the pipes and what libraries open for themselves; a child opens no file per job.
    static let openFiles = 64
    /// CPU seconds one job may use, on every thread together; the kernel stops the child past it, even
    /// inside a C loop that would never look at the parent's wall-clock deadline.
    static let cpuSecondsPerJob = 120

    /// Applies the limits and returns the file descriptor answers must be written to.
    static func apply() throws(BackendError) -> FileDescriptor {
        do {
            try ResourceLimit.coreFileBytes.fix(at: 0)
            try ResourceLimit.addressSpaceBytes.fix(at: addressSpace)
            try ResourceLimit.openFiles.fix(at: openFiles)
        } catch {
            throw BackendError(error)
        }
        // A C library that prints to stdout must not corrupt the protocol: answers go to a private copy
        // of the original descriptor, and stdout itself now points at stderr.
        let answers = try FileDescriptor.standardOutput.duplicate()
        try FileDescriptor.standardError.duplicate(onto: .standardOutput)
        return answers
    }

    /// Gives up for good what decoding never needs, once start-up has loaded every library, plugin and
    /// codec: no new privileges, no filesystem but the system's fonts, read-only (Landlock, where the kernel
    /// offers it), and only the system calls of `SyscallFilter` — any other kills the process with SIGSYS.
    /// Both bind every thread, those libdispatch and libvips started during the warm-up included. Without
    /// Landlock nothing else would keep a read-only `open` to the fonts, so the filter then allows none.
    static func seal() throws(ConfinementError) {
        try SyscallFilter.forbidNewPrivileges()
        let landlock = try Landlock.denyFileSystem(exceptReading: SystemFonts.directories)
        try SyscallFilter.install(allowingReadOnlyOpens: landlock != nil)
    }

    /// What `serve` and `work` log once at start-up when the kernel offers no Landlock (built without it, or
    /// not enabled at boot): their decoder children are then kept from the filesystem by the seccomp filter
    /// alone. nil when it offers Landlock.
    static var landlockWarning: String? {
        guard Landlock.version == nil else { return nil }
        return "the kernel offers no Landlock: decoder children are kept from the filesystem by their "
            + "seccomp filter alone (boot with Landlock among the LSMs, lsm=…,landlock)"
    }

    /// Hands the memory freed by a job back to the kernel when it is more than the allocator keeps for the
    /// next picture: glibc keeps freed heap pages mapped, so without this a child's resident set stays at its
    /// largest picture's for the rest of its life.
    static func returnMemory() {
        Heap.trim(keeping: Allocator.keptFreeMemory)
    }

    /// Moves the CPU-time limit to what this process has used so far plus one job's budget (or to the hard
    /// limit the service runs under, when that comes first).
    static func startJobBudget() throws(SystemCallError) {
        try ResourceLimit.cpuSeconds.move(to: ResourceUsage.cpuSeconds + 1 + cpuSecondsPerJob)
    }

    /// Writes all of `bytes` to the answer descriptor; a child that cannot answer exits.
    static func write(_ bytes: [UInt8], to descriptor: FileDescriptor) {
        do {
            try descriptor.write(bytes)
        } catch {
            ExitStatus.failure.endProcess()
        }
    }
}
