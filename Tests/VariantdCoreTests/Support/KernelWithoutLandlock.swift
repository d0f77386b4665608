/// A kernel without Landlock, as a process and its children see one: Debian's Python installs a seccomp
/// filter that answers `landlock_create_ruleset` with ENOSYS, as a kernel built without Landlock does, then
/// becomes the program named after it. Every other call runs as usual.
enum KernelWithoutLandlock {
    /// The program and arguments that start a command line under it.
    static let launcher = ["/usr/bin/python3", "-c", script]

    /// `landlock_create_ruleset` is 444 on every architecture (system calls added since Linux 5.1 share
    /// their numbers). The filter: load the call's number; if 444, fail with ENOSYS (38); else allow.
    private static let script = """
        import ctypes, os, struct, sys
        program = [(0x20, 0, 0, 0), (0x15, 0, 1, 444), (0x06, 0, 0, 0x00050000 | 38), (0x06, 0, 0, 0x7FFF0000)]
        code = b"".join(struct.pack("HBBI", *instruction) for instruction in program)
        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
        libc = ctypes.CDLL(None, use_errno=True)
        # PR_SET_NO_NEW_PRIVS, then PR_SET_SECCOMP with SECCOMP_MODE_FILTER.
        if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(Program(len(program), code)), 0, 0) != 0:
            sys.exit("seccomp: " + os.strerror(ctypes.get_errno()))
        os.execv(sys.argv[1], sys.argv[1:])
        """
}
