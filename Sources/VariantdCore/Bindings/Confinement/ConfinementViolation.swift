#if canImport(Glibc)
    import Glibc
#endif

#if DEBUG
    /// A call a sealed decoder child must never get to make, made on purpose by tests (`decoder-child
    /// --violate`) to prove that the seal holds and the parent answers the job for a killed child. Debug
    /// builds only: the release build, the one installed, cannot be asked to make it.
    enum ConfinementViolation: String, Sendable {
        /// Opens a font for writing: the filter kills the child.
        case open
        /// Reads a file that is not a font: Landlock refuses it, and the child carries on; were it read,
        /// the child would abort, so a job answered proves the refusal.
        case read
        /// Opens a socket: the filter kills the child.
        case socket

        func attempt() {
            switch self {
            case .open:
                let descriptor = Glibc.open("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", O_WRONLY)
                if descriptor >= 0 { close(descriptor) }
            case .read:
                let descriptor = Glibc.open("/etc/hostname", O_RDONLY)
                if descriptor >= 0 { abort() }
            case .socket:
                let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                if descriptor >= 0 { close(descriptor) }
            }
        }
    }
#endif
