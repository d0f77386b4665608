import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The few POSIX file calls Foundation does not offer with the guarantees we need: a rename that replaces
/// atomically, and durable writes (file and directory fsync).
enum FileSystem {
    /// Writes `bytes` to a new file and flushes it to disk.
    static func writeDurably(_ bytes: [UInt8], to path: String) throws(BackendError) {
        let file = try FileDescriptor.open(path, .creatingNew)
        defer { file.close() }
        do {
            try file.write(bytes)
            try file.synchronize()
        } catch {
            throw BackendError(call: error.call, message: "\(path): \(error.message)")
        }
    }

    /// Moves `source` over `destination` in one step: readers see the old file or the new one, never half.
    static func replace(_ destination: String, with source: String) throws(BackendError) {
        guard rename(source, destination) == 0 else { throw .posix("rename", destination) }
    }

    /// Makes a directory's entries (a rename into it) durable.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The path with every symbolic link resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static var processID: Int32 { getpid() }

    /// Whether a process with this id exists (it may belong to another user).
    static func processExists(_ id: Int32) -> Bool {
        kill(id, 0) == 0 || errno != ESRCH
    }
}
