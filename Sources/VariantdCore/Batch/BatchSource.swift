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

    /// The files one at a time, in a stable order; `problem` hears of a directory or a listing page that
    /// cannot be read (the walk leaves it out and goes on, or ends for a listing).
    func walk(problem: @escaping @Sendable (String) -> Void) -> AnyIterator<File> {
        switch self {
        case .folder(let root, let excluded):
            var files = FolderWalk(root: root, excluded: excluded) { path in
                problem(
                    "\(path) cannot be read (a directory not listed, a name not in UTF-8, a path too long); left out"
                )
            }.makeIterator()
            return AnyIterator { files.next().map { File(relativePath: $0.relativePath) } }
        case .bucket(let client, let location, let excluded):
            var objects = BucketWalk(client: client, location: location, excluded: excluded) { error in
                problem("\(location) cannot be listed further (\(error)); the rest is left out")
            }.makeIterator()
            return AnyIterator { objects.next().map { File(relativePath: $0.relativePath) } }
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
