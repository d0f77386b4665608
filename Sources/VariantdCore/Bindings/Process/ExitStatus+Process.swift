#if canImport(Glibc)
    import Glibc
#endif

extension ExitStatus {
    /// Ends the process at once with this status: at the end of `main`, or from a second Ctrl-C, which cannot
    /// wait for the command to unwind.
    package func endProcess() -> Never {
        exit(rawValue)
    }
}
