import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// SIGKILL, for a process that must end now: Foundation sends SIGTERM (`terminate`) and SIGINT
    /// (`interrupt`), nothing a process cannot catch.
    package func kill() {
        _ = Glibc.kill(processIdentifier, SIGKILL)
    }
}
