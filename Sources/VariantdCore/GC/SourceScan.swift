import Foundation
import Synchronization
import Variants

/// The walk of `--root` that makes a run's live set: every object found is stamped in the state file with
/// the checksum of its bytes, remembered when the object is the version hashed before, else hashed as it is
/// read (1 MiB at a time from a folder, as one GET streams it from storage). Only the page or directory in
/// hand is held.
///
/// A part of the location that cannot be listed or an object that cannot be read ends the scan with an
/// error: the live set would lack it, and the sweep would take renditions still in use.
struct SourceScan {
    enum Location: Sendable {
        /// A folder (symbolic links resolved) and the absolute paths not to walk (the rendition store and the
        /// state file when they lie inside it).
        case folder(String, excluded: Set<String>)
        /// A location, and the key prefixes not to walk (the rendition store's when it lies under it).
        case bucket(S3Client, S3Location, excluded: [String])
    }

    let location: Location
    /// The location as the state file knows it.
    let root: String
    let state: GCState
    let run: Int64
    let progress: GCProgress

    func scan() throws(GCError) {
        switch location {
        case .folder(let folder, let excluded):
            let problem = FirstProblem()
            for file in FolderWalk(root: folder, excluded: excluded, unreadable: problem.keep) {
                if let found = problem.found { throw GCError(found) }
                let version = SourceVersion(
                    path: file.relativePath, file: FileIdentity(path: file.absolutePath))
                try see(version) { () throws(GCError) -> String? in
                    if let checksum = SourceChecksum.of(file.absolutePath) { return checksum }
                    // Gone since it was listed: nothing holds its bytes any more. There, but unreadable: unknown.
                    guard FileManager.default.fileExists(atPath: file.absolutePath) else { return nil }
                    throw GCError(.noInput, "\(file.absolutePath) cannot be read")
                }
            }
            if let found = problem.found { throw GCError(found) }
        case .bucket(let client, let location, let excluded):
            var token: String?
            repeat {
                let page: (objects: [S3Object], next: String?)
                do {
                    page = try client.listPage(
                        bucket: location.bucket, prefix: location.listPrefix, after: token)
                } catch {
                    throw GCError(error)
                }
                for object in page.objects {
                    guard !object.key.hasSuffix("/"),
                        !excluded.contains(where: { object.key.utf8.starts(with: $0.utf8) })
                    else { continue }
                    let version = SourceVersion(path: location.relative(object.key), object: object)
                    try see(version) { () throws(GCError) -> String? in
                        do throws(S3Error) {
                            return try client.checksum(bucket: location.bucket, key: object.key)
                        } catch  where error.kind == .notFound {
                            return nil
                        } catch {
                            throw GCError(error)
                        }
                    }
                }
                token = page.next
            } while token != nil
        }
        do {
            try state.forgetUnseen(root: root, run: run)
        } catch {
            throw GCError(state: state.file, error)
        }
    }

    /// Stamps one object with its checksum: the remembered one when its version is the one hashed before,
    /// else `hash()`'s (nil: the object is gone).
    private func see(_ version: SourceVersion, hash: () throws(GCError) -> String?) throws(GCError) {
        do {
            if let identity = version.identity,
                let checksum = try state.checksum(root: root, path: version.path, identity: identity)
            {
                try state.record(
                    root: root, path: version.path, identity: identity, checksum: checksum, run: run)
                progress.update { $0.sourcesReused += 1 }
                return
            }
            guard let checksum = try hash() else { return }
            try state.record(
                root: root, path: version.path, identity: version.identity, checksum: checksum, run: run)
            progress.update { $0.sourcesHashed += 1 }
        } catch let error as QueueError {
            throw GCError(state: state.file, error)
        } catch let error as GCError {
            throw error
        } catch {
            throw GCError(.software, "\(error)")
        }
    }
}

/// The first part of a folder its walk could not read; the walk reports it from inside its iterator.
private final class FirstProblem: Sendable {
    private let problem = Mutex<WalkProblem?>(nil)

    var found: WalkProblem? { problem.withLock { $0 } }

    @Sendable func keep(_ found: WalkProblem) {
        problem.withLock { if $0 == nil { $0 = found } }
    }
}
