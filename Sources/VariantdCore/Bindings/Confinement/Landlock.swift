internal import CLandlock
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// Landlock, where the kernel offers it: a decoder child that has loaded its libraries gives up the
/// filesystem, on every thread, but reading the system's fonts (`SystemFonts`). The calls go straight to the kernel (glibc has no wrappers), through the
/// `CLandlock` shim.
///
/// `landlock_restrict_self` binds the calling thread and the threads it starts afterwards, not the threads
/// that already run — and by the time a child seals itself, libdispatch (which runs every line of Swift, the
/// main thread parked) and libvips have started theirs. Sealing before any other thread exists cannot work
/// here: libvips starts a worker as it initialises, and loading the libraries and plugins opens about a
/// hundred files, which would have to stay readable for good. So every thread is restricted instead: by the
/// kernel in one step where it can (`TSYNC`, ABI 8), else by a round that has each thread restrict itself in
/// a signal handler and ends only when a pass over `/proc/self/task` finds no thread left. A thread that
/// cannot be reached fails the seal, and the child never decodes.
enum Landlock {
    /// The first ABI version whose `landlock_restrict_self` can bind every thread of the process at once.
    static let processWideVersion = 8

    /// The ABI version the kernel offers, or nil when it offers none.
    static var version: Int? {
        try? offeredVersion()
    }

    /// Denies every filesystem right this kernel's Landlock can handle, to every thread of the process and
    /// every thread started afterwards, but reading the files and listing the directories beneath
    /// `readable`. Returns the ABI version enforced, or nil when the kernel has no Landlock.
    static func denyFileSystem(exceptReading readable: [String]) throws(ConfinementError) -> Int? {
        guard let abi = try offeredVersion() else { return nil }
        let ruleset = cl_landlock_deny_ruleset(handledRights(abi: abi))
        guard ruleset >= 0 else { throw Self.failure(SystemCallError("landlock_create_ruleset")) }
        defer { close(ruleset) }
        for path in readable {
            let error = cl_landlock_allow_reading(ruleset, path)
            guard error == 0 else {
                throw Self.failure(SystemCallError("landlock_add_rule", code: error, about: path))
            }
        }
        if abi >= processWideVersion {
            let error = cl_landlock_restrict_process(ruleset)
            guard error == 0 else {
                throw Self.failure(
                    SystemCallError("landlock_restrict_self", code: error, about: "every thread"))
            }
        } else {
            var thread: Int32 = 0
            let error = cl_landlock_restrict_every_thread(ruleset, &thread)
            guard error == 0 else {
                throw Self.failure(
                    SystemCallError("landlock_restrict_self", code: error, about: "thread \(thread)"))
            }
        }
        return abi
    }

    /// nil when the kernel has no Landlock (built without it, or not enabled at boot).
    private static func offeredVersion() throws(ConfinementError) -> Int? {
        let abi = cl_landlock_abi()
        guard abi > 0 else {
            if errno == ENOSYS || errno == EOPNOTSUPP { return nil }
            throw Self.failure(SystemCallError("landlock_create_ruleset", about: "the ABI version"))
        }
        return Int(abi)
    }

    private static func failure(_ failure: SystemCallError) -> ConfinementError {
        ConfinementError(step: "Landlock", failure: failure)
    }

    /// The filesystem rights each ABI version knows: 13 in the first, then `REFER` (2), `TRUNCATE` (3) and
    /// `IOCTL_DEV` (5). Rights a ruleset handles and no rule grants are denied.
    static func handledRights(abi: Int) -> UInt64 {
        switch abi {
        case ...1: (1 << 13) - 1
        case 2: (1 << 14) - 1
        case 3, 4: (1 << 15) - 1
        default: (1 << 16) - 1
        }
    }
}
