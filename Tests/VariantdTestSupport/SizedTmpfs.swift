import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A size-limited tmpfs mounted on a folder, the way an operator meets a full or read-only disk: filled to
/// the last byte, emptied, remounted read-only and writable again. Mounting needs root (CI runs as root);
/// tests enable themselves with `isAvailable`.
package final class SizedTmpfs {
    package let path: String
    private var filler: String { path + "/.filler" }

    package static var isAvailable: Bool { getuid() == 0 }

    /// Mounts a tmpfs of `bytes` on `path` (made if missing).
    package init(at path: String, bytes: Int) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path])
    }

    private var mounted = true

    deinit {
        unmount()
    }

    /// Unmounts it (lazily, should a file still be open there); what it held is gone.
    package func unmount() {
        guard mounted else { return }
        mounted = false
        try? Self.run("/bin/umount", ["-l", path])
    }

    /// Writes a filler file until the file system has no room left.
    package func fill() {
        let descriptor = open(filler, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0x55, count: 4096)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // The last page may take a shorter write.
        while write(descriptor, chunk, 1) > 0 {}
    }

    /// Removes the filler: the room is back.
    package func empty() {
        unlink(filler)
    }

    /// Remounts it read-only, or writable again.
    package func remount(readOnly: Bool) throws {
        try Self.run("/bin/mount", ["-o", "remount," + (readOnly ? "ro" : "rw"), path])
    }

    private static func run(_ program: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(program) \(arguments) exited \(process.terminationStatus)"
                ])
        }
    }
}
