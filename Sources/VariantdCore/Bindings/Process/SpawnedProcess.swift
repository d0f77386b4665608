internal import CSpawn
import Foundation
import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn` that holds exactly the three (or four) descriptors it is handed.
///
/// Foundation's `Process` is not used for this: its pipes are not close-on-exec, so a program another
/// thread starts at the same moment inherits them, and it learns that a child ended only when every holder
/// of a socket it gives the child has closed it. A decoder child that inherited its neighbour's pipes and
/// that socket kept the neighbour's input open and its exit unseen, and whoever waited for the neighbour —
/// a pool slot, a test — waited as long as the other child lived. Here every descriptor above 2 is closed in
/// the child when it starts, and the exit is read with `waitpid`.
final class SpawnedProcess: @unchecked Sendable {
    enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    let processID: pid_t
    private let lock = NSLock()
    private var ended: Termination?

    /// Starts `executable` (looked up in `PATH` when it has no slash) in a process group of its own, so that
    /// a terminal's Ctrl-C reaches this process, which decides what its children do, and with no signal
    /// blocked, whichever thread starts it.
    ///
    /// - Parameters:
    ///   - environment: The child's whole environment; nil passes this process's own.
    ///   - standardInput: The descriptor the child reads as 0 (and likewise 1 and 2); nil passes this
    ///     process's own. The caller closes its copies when it no longer needs them.
    ///   - third: A descriptor the child holds as 3, when given (a decoder child's refusal pipe).
    init(
        _ executable: String, arguments: [String], environment: [String: String]? = nil,
        standardInput: FileDescriptor?, standardOutput: FileDescriptor?, standardError: FileDescriptor?,
        third: FileDescriptor? = nil
    ) throws(SystemCallError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        // Each call answers 0 or an error number; the first error stops the start.
        var failure: SystemCallError?
        func check(_ call: String, _ code: Int32) {
            if failure == nil && code != 0 { failure = SystemCallError(call, code: code, about: executable) }
        }
        let targets = [(standardInput, 0), (standardOutput, 1), (standardError, 2), (third, 3)]
        for (descriptor, target) in targets {
            if let descriptor {
                let code = posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, Int32(target))
                check("posix_spawn_file_actions_adddup2", code)
            }
        }
        check("posix_spawn_file_actions_addclosefrom_np", csp_close_from(&actions, third == nil ? 3 : 4))
        check("posix_spawnattr_setsigmask", posix_spawnattr_setsigmask(&attributes, &noSignals))
        check("posix_spawnattr_setpgroup", posix_spawnattr_setpgroup(&attributes, 0))
        let flags = Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK)
        check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, flags))
        if let failure { throw failure }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let pairs = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0)=\($1)") }
        let envp = pairs + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let result =
            executable.contains("/")
            ? posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SystemCallError(
                executable.contains("/") ? "posix_spawn" : "posix_spawnp", code: result, about: executable)
        }
        processID = child
    }

    /// A pipe for a child's standard input or output, close-on-exec at both ends (the child gets its end
    /// through the descriptors handed to `init`).
    static func pipe(for program: String) throws(SystemCallError) -> (
        read: FileDescriptor, write: FileDescriptor
    ) {
        var ends: [Int32] = [-1, -1]
        guard csp_pipe(&ends) == 0 else { throw SystemCallError("pipe2", about: program) }
        return (FileDescriptor(ends[0]), FileDescriptor(ends[1]))
    }

    deinit {
        if termination == nil {
            Glibc.kill(processID, SIGKILL)
            _ = waitForExit()
        }
    }

    /// How the child ended, or nil while it runs. Reaps it once it has ended.
    var termination: Termination? {
        lock.withLock {
            if ended == nil {
                var status: Int32 = 0
                if waitpid(processID, &status, WNOHANG) == processID { ended = Self.termination(status) }
            }
            return ended
        }
    }

    var isRunning: Bool { termination == nil }

    /// Waits for the child to end (without reaping it, so that `termination` stays the one place that does).
    func waitForExit() -> Termination {
        while true {
            if let termination { return termination }
            var information = siginfo_t()
            _ = waitid(P_PID, id_t(processID), &information, WEXITED | WNOWAIT)
        }
    }

    /// SIGKILL: the child ends at once, whatever it is doing.
    func kill() {
        signal(SIGKILL)
    }

    /// Sends `signal` unless the child has already been reaped, when its number may belong to another process.
    func signal(_ signal: Int32) {
        lock.withLock {
            if ended == nil { _ = Glibc.kill(processID, signal) }
        }
    }

    private static func termination(_ status: Int32) -> Termination {
        let signal = csp_termination_signal(status)
        return signal != 0 ? .signalled(signal) : .exited(csp_exit_status(status))
    }
}
