import Foundation

/// Where `enqueue --walk` or `--from` finds the objects to enqueue: the object paths, one at a time, so a
/// bucket of millions costs the memory of one directory or listing page (a walk) or one read buffer (a
/// list).
enum ObjectListing: Sendable {
    /// The regular files under a folder, by the walk `batch` uses; their paths relative to it.
    case folder(String)
    /// The objects under an object-storage location, by the walk `batch` uses (every ListObjectsV2 page of
    /// `pageSize` keys); their keys relative to it.
    case bucket(S3Client, S3Location, pageSize: Int)
    /// Object paths one per line in a file (`-`: standard input), as a storage server exports them.
    case list(String)

    /// Refuses a location that cannot be read before anything is enqueued; an `s3://` location needs the
    /// object-storage settings of `environment`.
    init(
        walk location: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        pageSize: Int = 1000
    ) throws(UsageError) {
        if case .bucket(let bucket) = try StoreLocation(location) {
            self = .bucket(try StoreLocation.client(environment), bucket, pageSize: pageSize)
            return
        }
        guard !location.contains("://") else {
            throw UsageError("'--walk' takes a folder or s3://BUCKET[/PREFIX]; '\(location)' is neither")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw UsageError("'--walk' takes a folder or s3://BUCKET[/PREFIX]; '\(location)' is neither") }
        self = .folder(location.count > 1 && location.hasSuffix("/") ? String(location.dropLast()) : location)
    }

    init(from path: String) throws(UsageError) {
        guard path == "-" || FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError("The object list '\(path)' cannot be read")
        }
        self = .list(path)
    }

    /// The object paths, in listing order; `unreadable` hears of a directory or a line that could not be read,
    /// or of a listing page that could not be had (the walk ends there).
    func paths(unreadable: @escaping @Sendable (WalkProblem) -> Void) -> AnySequence<String> {
        switch self {
        case .folder(let root):
            AnySequence(
                FolderWalk(root: root, excluded: [], unreadable: unreadable).lazy.map(\.relativePath))
        case .bucket(let client, let location, let pageSize):
            AnySequence(
                BucketWalk(
                    client: client, location: location, excluded: [], pageSize: pageSize,
                    unlistable: unreadable
                ).lazy.map(\.relativePath))
        case .list(let path):
            AnySequence(LineReader(path: path) { unreadable(WalkProblem(listLine: $0)) })
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
