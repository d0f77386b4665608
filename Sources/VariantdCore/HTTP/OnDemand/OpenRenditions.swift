import Synchronization
import Variants

/// Stored renditions held open for hits, as nginx's `open_file_cache` holds files: a hit sends from a
/// descriptor already open instead of finding the file by its path, opening it and reading its identity,
/// which would be a fifth of a hit's time. An entry is trusted for `trusted` after its identity was read; later, one
/// `stat` of the path must give the same identity, or it is let go. Keys are content addresses, so a file
/// replaced in that second holds the same bytes; a removed one is sent for at most that second.
///
/// At most `capacity` descriptors are held. Adding one to a full set first lets go of those no hit has
/// checked for `idle`, or of all when every one is in use: a removed rendition's space is given back to
/// the file system once no entry holds it.
final class OpenRenditions: Sendable {
    struct Entry: Sendable {
        let file: HeldFile
        let identity: FileIdentity
        /// The rendition's SHA-256, its `ETag`.
        let checksum: String
        var checked: ContinuousClock.Instant
    }

    static let trusted = Duration.seconds(1)
    static let idle = Duration.seconds(60)
    static let defaultCapacity = 128

    private let entries = Mutex<[String: Entry]>([:])
    private let capacity: Int

    init(capacity: Int = defaultCapacity) {
        self.capacity = capacity
    }

    var count: Int {
        entries.withLock { $0.count }
    }

    /// The open rendition at `path`, checked against the path when its identity is over `trusted` old; nil
    /// when none is held or the path no longer names the file held.
    func entry(at path: String, now: ContinuousClock.Instant) -> Entry? {
        guard let entry = entries.withLock({ $0[path] }) else { return nil }
        if entry.checked.duration(to: now) < Self.trusted { return entry }
        guard FileIdentity(path: path) == entry.identity else {
            entries.withLock { entries in
                if entries[path]?.identity == entry.identity { entries[path] = nil }
            }
            return nil
        }
        var checked = entry
        checked.checked = now
        // Only over the entry just checked: another request may have let it go or kept a newer one meanwhile.
        entries.withLock { entries in
            if entries[path]?.identity == entry.identity { entries[path] = checked }
        }
        return checked
    }

    /// Holds `entry` open for the next hits on `path`.
    func keep(_ entry: Entry, at path: String) {
        entries.withLock { entries in
            if entries.count >= capacity, entries[path] == nil {
                entries = entries.filter { $0.value.checked.duration(to: entry.checked) < Self.idle }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[path] = entry
        }
    }
}
