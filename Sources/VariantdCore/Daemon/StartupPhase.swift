import Synchronization

/// Whether the daemon is still starting. Its signal handlers are installed first, so that a SIGHUP sent then
/// (`systemctl reload` right after `start`) is kept for later instead of ending the process; a stop signal
/// still ends it at once, as start-up may wait long for a locked queue or an unreachable database.
final class StartupPhase: Sendable {
    private let over = Atomic<Bool>(false)

    var isOver: Bool { over.load(ordering: .acquiring) }

    func end() {
        over.store(true, ordering: .releasing)
    }
}
