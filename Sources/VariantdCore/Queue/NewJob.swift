public import Variants

/// A job to enqueue, validated: an object the storage server stored and wants processed.
///
/// The dedupe key is (bucket, path, version): enqueuing it again while a job for it is still available or
/// running is a no-op.
public struct NewJob: Sendable, Equatable {
    public let request: ObjectRequest
    /// The object's version as the storage server names it; empty for an unversioned store.
    public let version: String
    /// Where the bytes are, relative to the object store the workers are given.
    public let source: String

    /// Refuses what a worker could never process: empty names, and a source that is absolute or climbs
    /// out of the object store.
    public init(request: ObjectRequest, version: String = "", source: String? = nil)
        throws(VariantsError)
    {
        guard !request.bucket.isEmpty, !request.path.isEmpty else {
            throw VariantsError(.invalidRequest, "a job needs a bucket and an object path")
        }
        let source = source ?? request.path
        try ObjectFolder.checkRelative(source)
        self.request = request
        self.version = version
        self.source = source
    }
}

/// What `enqueue` did: the job's id, and whether this call created it or found it already waiting.
public struct Enqueued: Sendable, Equatable, Codable {
    public var id: Int64
    public var created: Bool

    public init(id: Int64, created: Bool) {
        self.id = id
        self.created = created
    }
}
