#if canImport(Glibc)
    import Glibc
#endif

#if DEBUG
    /// A call a sealed decoder child must never get to make, made on purpose by tests (`decoder-child
    /// --violate`) to prove that the filter kills the child and the parent answers the job for it. Debug
    /// builds only: the release build, the one installed, cannot be asked to make it.
    enum ConfinementViolation: String, Sendable {
        case open
        case socket

        func attempt() {
            switch self {
            case .open:
                let descriptor = Glibc.open("/etc/hostname", O_RDONLY)
                if descriptor >= 0 { close(descriptor) }
            case .socket:
                let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                if descriptor >= 0 { close(descriptor) }
            }
        }
    }
#endif
