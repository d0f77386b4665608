/// The objects under an object-storage location, found one page of ListObjectsV2 at a time: only the page
/// being handed out is held, so a prefix of millions of objects costs the memory of one page.
///
/// Objects come in the store's key order (byte order of UTF-8 keys), so two walks agree. Keys ending in `/`
/// (folder markers some tools create) are not objects, and keys under `excluded` prefixes — the batch's
/// own renditions when they lie under the walked prefix — are left out.
struct BucketWalk: Sequence {
    /// An object found by the walk.
    struct Object: Sendable, Equatable {
        /// Relative to the walked location, with `/` separators: the object path in the bucket.
        var relativePath: String
        var size: Int
    }

    let client: S3Client
    let location: S3Location
    /// Key prefixes (full keys, not relative) whose objects are skipped.
    let excluded: [String]
    /// Keys asked for per ListObjectsV2 page (S3 answers at most 1000).
    var pageSize = 1000
    /// Called when a page cannot be listed, saying how far the listing got; the walk ends there.
    let unlistable: @Sendable (WalkProblem) -> Void

    func makeIterator() -> Iterator {
        Iterator(walk: self)
    }

    struct Iterator: IteratorProtocol {
        private let walk: BucketWalk
        private var page: ArraySlice<S3Object> = []
        private var token: String?
        private var finished = false
        /// Keys listed so far, and the last of them: where a listing that breaks off stopped.
        private var listed = 0
        private var lastKey: String?

        init(walk: BucketWalk) {
            self.walk = walk
        }

        mutating func next() -> Object? {
            while true {
                if let object = page.popFirst() {
                    // Byte for byte, as S3 matches prefixes: `hasPrefix` compares canonically equivalent text.
                    guard !object.key.hasSuffix("/"),
                        !walk.excluded.contains(where: { object.key.utf8.starts(with: $0.utf8) })
                    else {
                        continue
                    }
                    return Object(relativePath: walk.location.relative(object.key), size: object.size)
                }
                guard !finished else { return nil }
                do {
                    let listed = try walk.client.listPage(
                        bucket: walk.location.bucket, prefix: walk.location.listPrefix, after: token,
                        pageSize: walk.pageSize)
                    page = listed.objects[...]
                    token = listed.next
                    finished = listed.next == nil
                    self.listed += listed.objects.count
                    lastKey = listed.objects.last?.key ?? lastKey
                } catch {
                    finished = true
                    walk.unlistable(
                        WalkProblem(
                            listing: walk.location, error: error, listed: self.listed,
                            stoppedAfter: lastKey.map(walk.location.relative)))
                }
            }
        }
    }
}
