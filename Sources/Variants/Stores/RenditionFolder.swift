import Foundation

/// A rendition store in a folder of the local file system.
///
/// Layout: `ROOT/<key>`. Files appear whole or not at all: each is written to `ROOT/.tmp/<pid>-<uuid>` (same
/// file system), flushed, and linked into place unless a file already has its key. Opening the folder
/// removes what writers that no longer run left in `.tmp` (a process killed in the middle of a write).
public struct RenditionFolder: RenditionStore {
    public let root: String
    /// Told how each write ended: nil when it succeeded, else the `errno` of the call that failed (0 when
    /// none is known), so a daemon can say when its store cannot take writes and when it can again.
    package var onWrite: (@Sendable (_ failure: Int32?) -> Void)?

    /// Where unfinished files wait.
    var temporaryDirectory: String { root + "/.tmp" }

    public init(root: String) throws(VariantsError) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        do {
            try Self.createDirectory(root + "/.tmp")
        } catch {
            throw VariantsError(
                .internalError, "the rendition store \(root) cannot be created: \(error.message)")
        }
        removeAbandonedFiles()
    }

    /// The bytes of a stored rendition, if any.
    public func existing(_ key: String) -> [UInt8]? {
        FileManager.default.contents(atPath: root + "/" + key).map { [UInt8]($0) }
    }

    public func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile] {
        let directory = RenditionKey.directory(ofSource: sourceChecksum)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + directory)) ?? []
        return names.compactMap { name in
            guard specKeys.contains(RenditionKey.specKey(ofFileName: name)) else { return nil }
            let key = directory + "/" + name
            return existing(key).map { RenditionFile(key: key, bytes: $0) }
        }
    }

    public func write(_ files: [RenditionFile]) throws(VariantsError) {
        var written: [String] = []
        do {
            for file in files {
                let destination = root + "/" + file.key
                let directory = (destination as NSString).deletingLastPathComponent
                try Self.createDirectory(directory)
                let temporary = "\(temporaryDirectory)/\(FileSystem.processID)-\(UUID().uuidString)"
                do {
                    try FileSystem.writeDurably(file.bytes, to: temporary)
                } catch {
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw error
                }
                // A file already under the key came from the same bytes and settings, and may have been
                // reported by the job that stored it: it stays, and is not this call's to remove.
                guard try FileSystem.placeNew(destination, from: temporary) else { continue }
                written.append(destination)
                FileSystem.syncDirectory(directory)
            }
        } catch {
            for path in written { try? FileManager.default.removeItem(atPath: path) }
            let errorNumber = (error as? BackendError)?.errorNumber
            onWrite?(errorNumber ?? 0)
            if let failure = error as? BackendError, SystemCallError.isOutOfSpace(errorNumber) {
                throw VariantsError(.insufficientStorage, "the rendition store has no room: \(failure)")
            }
            if let failure = error as? BackendError,
                SystemCallError.isUnwritable(errorNumber) || SystemCallError.isOutOfDescriptors(errorNumber)
            {
                throw VariantsError(.storeUnavailable, "the rendition store cannot take writes: \(failure)")
            }
            throw VariantsError(.internalError, "a rendition could not be written: \(error)")
        }
        if !files.isEmpty { onWrite?(nil) }
    }

    /// Removes the unfinished files of writer processes that no longer exist.
    private func removeAbandonedFiles() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory)) ?? []
        for name in names {
            guard let writer = Int32(name.prefix { $0 != "-" }), !FileSystem.processExists(writer) else {
                continue
            }
            try? FileManager.default.removeItem(atPath: temporaryDirectory + "/" + name)
        }
    }

    /// Makes `path` and its parents; a failure keeps the `errno` Foundation met, and says it in the
    /// system's words (`Read-only file system (errno 30)`).
    private static func createDirectory(_ path: String) throws(BackendError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error).map {
                $0 as NSError
            }
            guard let underlying, underlying.domain == NSPOSIXErrorDomain else {
                throw BackendError(call: "mkdir", message: "\(path): \(error)")
            }
            throw BackendError(SystemCallError("mkdir", code: Int32(underlying.code), about: path))
        }
    }
}
