import Synchronization

/// What a batch walks: the files under a folder, or the objects under an object-storage location. Either
/// way a file's path relative to it is its object path, and its key in the run's object store.
enum BatchSource: Sendable {
    /// A folder (absolute, symbolic links resolved) and the directories not to enter.
    case folder(String, excluded: Set<String>)
    /// A location and the key prefixes to leave out (the run's own renditions when they lie under it).
    case bucket(S3Client, S3Location, excluded: [String])

    /// A file the walk found.
    struct File: Sendable, Equatable {
        var relativePath: String
    }

    /// What the walk finds next.
    enum Found: Sendable {
        case file(File)
        /// A directory or listing page that cannot be read: the walk leaves it out and goes on, or ends for a
        /// listing.
        case problem(WalkProblem)
    }

    /// The files one at a time, in a stable order, and in their midst the parts that could not be listed.
    func walk() -> AnyIterator<Found> {
        let problems = PendingProblems()
        let next: () -> BatchSource.File?
        switch self {
        case .folder(let root, let excluded):
            var files = FolderWalk(root: root, excluded: excluded, unreadable: problems.add).makeIterator()
            next = { files.next().map { File(relativePath: $0.relativePath) } }
        case .bucket(let client, let location, let excluded):
            var objects = BucketWalk(
                client: client, location: location, excluded: excluded, unlistable: problems.add
            ).makeIterator()
            next = { objects.next().map { File(relativePath: $0.relativePath) } }
        }
        // A problem is heard while the walk looks for a file: it comes out right after that file, or after the
        // last one.
        return AnyIterator {
            if let problem = problems.take() { return .problem(problem) }
            if let file = next() { return .file(file) }
            return problems.take().map(Found.problem)
        }
    }

    /// The SHA-256 of a file too large to be read whole, hashed in pieces as it is read: 1 MiB at a time from
    /// a folder, as one GET streams it from storage. Nil when it cannot be read.
    func checksumInPieces(of file: File) -> String? {
        switch self {
        case .folder(let root, _):
            SourceChecksum.of(root + "/" + file.relativePath)
        case .bucket(let client, let location, _):
            try? client.checksum(bucket: location.bucket, key: location.key(file.relativePath))
        }
    }
}

/// The problems a walk has reported and the iterator not yet handed out.
private final class PendingProblems: Sendable {
    private let queue = Mutex<[WalkProblem]>([])

    @Sendable func add(_ problem: WalkProblem) {
        queue.withLock { $0.append(problem) }
    }

    func take() -> WalkProblem? {
        queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
