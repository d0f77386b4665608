#if canImport(Glibc)
    import Glibc
#endif

extension ExitStatus {
    /// Ends the process at once with this status: at the end of `main`, or from a second Ctrl-C, which cannot
    /// wait for the command to unwind.
    package func endProcess() -> Never {
        exit(rawValue)
    }

    /// Ends the process without running the libraries' exit handlers: for a stop while other threads are still
    /// starting, whose libraries (libvips, poppler, fontconfig) may be tearing down what another thread is
    /// still setting up. Nothing is held that needs flushing then.
    package func endProcessDuringStartUp() -> Never {
        _exit(rawValue)
    }
}
