import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The few POSIX file calls Foundation does not offer with the guarantees we need: a file placed under a
/// name only where none is, in one step, and durable writes (file and directory fsync).
package enum FileSystem {
    /// Writes `bytes` to a new file and flushes it to disk.
    package static func writeDurably(_ bytes: [UInt8], to path: String) throws(BackendError) {
        let file = try FileDescriptor.open(path, .creatingNew)
        defer { file.close() }
        do {
            try file.write(bytes)
            try file.synchronize()
        } catch {
            throw BackendError(
                call: error.call, message: "\(path): \(error.message)", errorNumber: error.errorNumber)
        }
    }

    /// Gives `source` the name `destination` unless a file has it already, in one step (`link`), then
    /// removes the name `source`; whether this call made `destination`. Of two writers of one name exactly
    /// one makes it, so each knows which files are its own to remove; readers see a whole file or none.
    static func placeNew(_ destination: String, from source: String) throws(BackendError) -> Bool {
        defer { unlink(source) }
        if link(source, destination) == 0 { return true }
        guard errno == EEXIST else { throw .posix("link", destination) }
        return false
    }

    /// Renames `source` to `destination` in one step; false when there is nothing at `source`.
    package static func move(_ source: String, to destination: String) throws(BackendError) -> Bool {
        if rename(source, destination) == 0 { return true }
        guard errno == ENOENT else { throw .posix("rename", source) }
        return false
    }

    /// Makes a directory's entries (a rename into it) durable.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The room left on the file system holding `path` for an unprivileged writer, and whether it is mounted
    /// read-only; nil when `statvfs` fails.
    package static func room(at path: String) -> (availableBytes: Int, readOnly: Bool)? {
        var facts = statvfs()
        guard statvfs(path, &facts) == 0 else { return nil }
        return (
            Int(clamping: UInt64(facts.f_bavail) &* UInt64(facts.f_frsize)),
            facts.f_flag & UInt(ST_RDONLY) != 0
        )
    }

    static var processID: Int32 { getpid() }

    /// Whether a process with this id exists (it may belong to another user).
    static func processExists(_ id: Int32) -> Bool {
        kill(id, 0) == 0 || errno != ESRCH
    }
}
