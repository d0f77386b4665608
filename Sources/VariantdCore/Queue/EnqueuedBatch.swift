/// What a batched enqueue did: how many jobs it added, and how many were already waiting or running for
/// the same (bucket, path, version) and so were left alone.
public struct EnqueuedBatch: Sendable, Equatable, Codable {
    public var added: Int
    public var alreadyQueued: Int

    public init(added: Int = 0, alreadyQueued: Int = 0) {
        self.added = added
        self.alreadyQueued = alreadyQueued
    }

    public static func + (left: Self, right: Self) -> Self {
        Self(added: left.added + right.added, alreadyQueued: left.alreadyQueued + right.alreadyQueued)
    }
}
