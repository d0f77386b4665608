/// Which jobs a listing returns: one state and/or one bucket, or every job when both are nil.
public struct JobFilter: Sendable, Equatable {
    public var state: JobState?
    public var bucket: String?

    public init(state: JobState? = nil, bucket: String? = nil) {
        self.state = state
        self.bucket = bucket
    }
}
