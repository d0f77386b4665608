import Glibc
import Variants

/// What `stat` says about a file that changes whenever its bytes may have: device, inode, size, and the
/// modification and status-change times to the nanosecond. A rename over it changes the inode, a write in
/// place the times.
struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec
    var changed: timespec

    /// The identity of a regular file, or nil when there is none at `path`.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the regular file open as `descriptor`, or nil when it is something else.
    init?(descriptor: FileDescriptor) {
        var status = stat()
        guard fstat(descriptor.rawValue, &status) == 0 else { return nil }
        self.init(status)
    }

    private init?(_ status: stat) {
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        changed = status.st_ctim
    }

    /// How long after its last change a file with nanosecond times vouches for its bytes. The kernel stamps
    /// times from a clock that moves a tick (1 to 10 ms) at a time, so a second write within the tick of the
    /// first would leave them as they are; this is several ticks.
    static let settling = Duration.milliseconds(50)

    /// Long enough unchanged that a write since would have moved the times. Times in whole seconds (some
    /// network file systems keep no more) settle once the second after theirs has passed.
    var isSettled: Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return isSettled(at: now)
    }

    func isSettled(at now: timespec) -> Bool {
        let latest = Self.later(modified, changed)
        if latest.tv_nsec == 0 { return latest.tv_sec < now.tv_sec - 1 }
        let elapsed =
            Duration.seconds(now.tv_sec - latest.tv_sec) + .nanoseconds(now.tv_nsec - latest.tv_nsec)
        return elapsed > Self.settling
    }

    private static func later(_ a: timespec, _ b: timespec) -> timespec {
        (a.tv_sec, a.tv_nsec) >= (b.tv_sec, b.tv_nsec) ? a : b
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }
}
