internal import CSeccomp

#if canImport(Glibc)
    import Glibc
#endif

/// Landlock, where the kernel offers it: a decoder child that has loaded its libraries gives up the whole
/// filesystem. The calls go straight to the kernel (glibc has no wrappers), through `CSeccomp`'s shim.
enum Landlock {
    /// Denies every filesystem right this kernel's Landlock can handle, to the calling thread and to every
    /// thread it starts afterwards. Returns the ABI version enforced, or nil when the kernel has no Landlock.
    static func denyFileSystem() throws(ConfinementError) -> Int? {
        let abi = cs_landlock_abi()
        guard abi > 0 else {
            if errno == ENOSYS || errno == EOPNOTSUPP { return nil }
            throw ConfinementError("Landlock: the ABI query failed (errno \(errno))")
        }
        let ruleset = cs_landlock_deny_ruleset(handledRights(abi: Int(abi)))
        guard ruleset >= 0 else { throw ConfinementError("Landlock: no ruleset (errno \(errno))") }
        defer { close(ruleset) }
        guard cs_landlock_restrict_self(ruleset) == 0 else {
            throw ConfinementError("Landlock: restricting failed (errno \(errno))")
        }
        return Int(abi)
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
