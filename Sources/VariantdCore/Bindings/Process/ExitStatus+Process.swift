#if canImport(Glibc)
    import Glibc
#endif

extension ExitStatus {
    /// Ends the process at once with this status: at the end of `main`, or from a second Ctrl-C, which cannot
    /// wait for the command to unwind.
    package func endProcess() -> Never {
        exit(rawValue)
    }

    /// Ends the process without running the libraries' exit handlers, once what was written is flushed: for a
    /// stop while other threads still run — still starting, or still serving when a grace period ended first
    /// — since the handlers tear down what those threads use (libvips, poppler, fontconfig, libmicrohttpd's
    /// connections), and the process could die by SIGSEGV instead of exiting with its status.
    package func endProcessLeavingThreads() -> Never {
        fflush(nil)
        _exit(rawValue)
    }
}
