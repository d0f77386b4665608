import Foundation
import Variants

/// One `gc`: the scan of `--root` into the state file, then the sweep of the rendition store against it. The
/// sweep starts only after a scan that saw everything, so a source missed never costs its renditions.
struct GCRun: Sendable {
    let sources: StoreLocation
    let renditions: StoreLocation
    let grace: Duration
    let dryRun: Bool
    let stateFile: String
    let environment: [String: String]
    let progress: GCProgress
    /// Called with each rendition a dry run would remove: its location and size.
    let wouldRemove: @Sendable (String, Int) -> Void

    func run() throws(GCError) {
        let state = try GCState(file: stateFile)
        let (scanned, swept) = try locations(stateFile: state.file)
        let root = sources.key(resolved: scanned)
        let run: Int64
        do {
            run = try state.beginRun(root: root)
        } catch {
            throw GCError(state: state.file, error)
        }
        try SourceScan(location: scanned, root: root, state: state, run: run, progress: progress).scan()
        try RenditionSweep(
            location: swept,
            isLive: { checksum throws(GCError) in
                do throws(QueueError) {
                    return try state.isLive(root: root, checksum: checksum, run: run)
                } catch {
                    throw GCError(state: state.file, error)
                }
            }, grace: grace, dryRun: dryRun, progress: progress, wouldRemove: wouldRemove
        ).sweep()
    }

    /// What to scan and what to sweep, each checked to be there. A rendition store inside `--root` is left
    /// out of the scan (its renditions are not sources), and so is the state file; one that is `--root`
    /// itself is refused, since renditions and sources could not be told apart.
    private func locations(stateFile: String) throws(GCError) -> (
        SourceScan.Location, RenditionSweep.Location
    ) {
        switch (sources, renditions) {
        case (.folder(let source), .folder(let store)):
            let source = try Self.reachableFolder(source, role: "--root")
            let store = try Self.reachableFolder(store, role: "--out")
            guard source != store else {
                throw GCError(
                    .usage, "'--root' and '--out' are the same folder: sources and renditions would mix")
            }
            let stateFolder = URL(fileURLWithPath: (stateFile as NSString).deletingLastPathComponent)
                .resolvingSymlinksInPath().path
            let name = (stateFile as NSString).lastPathComponent
            let excluded =
                [store] + ["", "-wal", "-shm", "-journal", ".lock"].map { stateFolder + "/" + name + $0 }
            return (.folder(source, excluded: Set(excluded)), .folder(store))
        case (.folder(let source), .bucket(let location)):
            return (
                .folder(try Self.reachableFolder(source, role: "--root"), excluded: []),
                .bucket(try client(), location)
            )
        case (.bucket(let location), .folder(let store)):
            return (
                .bucket(try client(), location, excluded: []),
                .folder(try Self.reachableFolder(store, role: "--out"))
            )
        case (.bucket(let source), .bucket(let store)):
            let client = try client()
            var excluded: [String] = []
            if source.bucket == store.bucket {
                guard source.listPrefix != store.listPrefix else {
                    throw GCError(
                        .usage, "'--root' and '--out' are the same location: sources and renditions would mix"
                    )
                }
                if store.listPrefix.utf8.starts(with: source.listPrefix.utf8) {
                    excluded.append(store.listPrefix)
                }
            }
            return (.bucket(client, source, excluded: excluded), .bucket(client, store))
        }
    }

    private func client() throws(GCError) -> S3Client {
        do {
            return try StoreLocation.client(environment)
        } catch {
            throw GCError(.usage, error.message)
        }
    }

    /// The folder with symbolic links resolved; one that is not there may be a volume not mounted yet.
    private static func reachableFolder(_ path: String, role: String) throws(GCError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw GCError(.temporaryFailure, "the \(role) folder \(path) cannot be reached")
        }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}

extension StoreLocation {
    /// How the state file names a walked location: a folder by its resolved path, a bucket by its location.
    fileprivate func key(resolved: SourceScan.Location) -> String {
        switch resolved {
        case .folder(let path, _): "file://" + path
        case .bucket(_, let location, _): location.description
        }
    }
}
