/// Process exit statuses, following BSD `sysexits.h` where a convention exists.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The command ran and found what it was asked to flag (`batch --strict` met an unreadable picture).
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// An input file could not be read (EX_NOINPUT).
    case noInput = 66
    /// An internal error (EX_SOFTWARE).
    case software = 70
    /// An output could not be written (EX_IOERR).
    case ioError = 74
    /// A temporary failure; running the same command again may succeed (EX_TEMPFAIL).
    case temporaryFailure = 75
    /// Access was refused: credentials, a bucket or a directory the command may not read (EX_NOPERM).
    case noPermission = 77
    /// The system refuses what the command needs, such as a decoder child's confinement (EX_CONFIG).
    case configuration = 78
    /// Stopped by SIGINT (Ctrl-C): 128 + the signal number, as shells report it.
    case interrupted = 130
    /// Stopped by SIGTERM.
    case terminated = 143

    /// A command stopped by one of the two signals commands stop on, SIGINT or SIGTERM: 128 + its number, as
    /// shells report it.
    init(stoppedBy signal: Int32) {
        self = signal == SignalStream.interrupt ? .interrupted : .terminated
    }
}
