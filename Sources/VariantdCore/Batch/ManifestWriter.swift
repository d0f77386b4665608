import Foundation
import Synchronization
import Variants

/// Appends lines to `OUT/manifest.jsonl`, each whole: a line is written by one call under a lock, so a
/// forced exit (a second Ctrl-C) taken under the same lock never leaves half a line.
///
/// The file is locked (`flock`) while a run has it open, so a second run on the same output refuses to
/// start instead of interleaving its lines.
final class ManifestWriter: Sendable {
    /// Why the manifest cannot be used.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let handle: Mutex<FileHandle>

    private init(_ handle: FileHandle) {
        self.handle = Mutex(handle)
    }

    /// Opens (or creates) the manifest, locks it, reads what earlier runs recorded, and cuts off a torn
    /// last line so appending starts on a line boundary.
    static func open(_ path: String) throws -> (writer: ManifestWriter, contents: ManifestReader.Contents) {
        // Close-on-exec from the start: a decoder child spawned meanwhile must not inherit the descriptor,
        // or it would hold the lock (which belongs to the open file) after this run has closed it.
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .updating)
        } catch {
            throw Failure(description: "the manifest \(path) cannot be created")
        }
        let handle = FileHandle(fileDescriptor: descriptor.rawValue, closeOnDealloc: true)
        guard descriptor.tryLock() else {
            throw Failure(description: "another batch run is writing \(path)")
        }
        let contents = try ManifestReader.read(path)
        try handle.truncate(atOffset: contents.completeLength)
        try handle.seekToEnd()
        return (ManifestWriter(handle), contents)
    }

    func append(_ line: [UInt8]) throws {
        try handle.withLock { try $0.write(contentsOf: line + [0x0A]) }
    }

    /// Flushes to disk and closes (which releases the lock): the end of a run, interrupted or not.
    func close() throws {
        try handle.withLock { handle in
            try handle.synchronize()
            try handle.close()
        }
    }

    /// Runs `body`, which ends the process, once no line is being written.
    func whileNotWriting(_ body: () -> Never) -> Never {
        handle.withLock { _ in body() }
    }
}
