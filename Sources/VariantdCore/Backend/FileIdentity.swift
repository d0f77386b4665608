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

    /// Changed within the last `seconds` of the wall clock: a write in the same clock tick would leave the
    /// times as they are, so such an identity does not yet vouch for the bytes.
    func isRecent(within seconds: Int) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return max(modified.tv_sec, changed.tv_sec) >= now.tv_sec - seconds
    }

    static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
            && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }
}
