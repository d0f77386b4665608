import Foundation

/// Where `enqueue --walk` or `--from` finds the objects to enqueue: the object paths, one at a time, so a
/// bucket of millions costs the memory of one directory (a walk) or one read buffer (a list).
///
/// Another kind of store (an S3 prefix) is one more case yielding object paths the same way.
enum ObjectListing: Sendable, Equatable {
    /// The regular files under a folder, by the walk `batch` uses; their paths relative to it.
    case folder(String)
    /// Object paths one per line in a file (`-`: standard input), as a storage server exports them.
    case list(String)

    /// Refuses a location that cannot be read before anything is enqueued.
    init(walk location: String) throws(UsageError) {
        guard !location.contains("://") else {
            throw UsageError("'--walk' takes a folder; '\(location)' is not one")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw UsageError("'--walk' takes a folder; '\(location)' is not one") }
        self = .folder(location.count > 1 && location.hasSuffix("/") ? String(location.dropLast()) : location)
    }

    init(from path: String) throws(UsageError) {
        guard path == "-" || FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError("The object list '\(path)' cannot be read")
        }
        self = .list(path)
    }

    /// The object paths, in listing order; `unreadable` hears of a directory or file that could not be read.
    func paths(unreadable: @escaping @Sendable (String) -> Void) -> AnySequence<String> {
        switch self {
        case .folder(let root):
            AnySequence(
                FolderWalk(root: root, excluded: [], unreadable: unreadable).lazy.map(\.relativePath))
        case .list(let path):
            AnySequence(LineReader(path: path, unreadable: unreadable))
        }
    }

    /// The bytes a list holds, so progress can be shown as a fraction; nil for a walk or standard input.
    var totalBytes: Int? {
        guard case .list(let path) = self, path != "-",
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        else { return nil }
        return size.intValue
    }
}
