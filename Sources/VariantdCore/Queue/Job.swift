public import Variants

/// One job as the queue holds it: the object, where it is in its life, its lease, and its result.
///
/// Its JSON (one line per job in `variantd jobs` and in callbacks) carries the completion metadata once
/// completed, or the last error (`VariantsError` JSON) otherwise.
public struct Job: Sendable, Codable, Equatable {
    public var id: Int64
    public var bucket: String
    public var path: String
    public var version: String
    /// Relative to the object store.
    public var source: String
    public var declaredContentType: String?
    public var state: JobState
    /// Claims so far, the current one included.
    public var attempts: Int
    public var maxAttempts: Int
    /// Attempts whose decoder child crashed or overran its deadline.
    public var crashes: Int
    public var leaseOwner: String?
    /// The fencing token of the current lease: only a finish carrying it is accepted.
    public var leaseToken: Int64?
    public var leaseExpiresAt: Timestamp?
    public var metadata: CompletionMetadata?
    public var error: VariantsError?
    public var createdAt: Timestamp
    /// When the job may next be claimed.
    public var scheduledAt: Timestamp
    public var attemptedAt: Timestamp?
    public var finishedAt: Timestamp?
    /// When the callback acknowledged the result.
    public var reportedAt: Timestamp?

    public var request: ObjectRequest {
        ObjectRequest(bucket: bucket, path: path, declaredContentType: declaredContentType)
    }
}

extension Job {
    /// The columns both backends select, in this order, with times as epoch milliseconds.
    static let columns = [
        "id", "bucket", "path", "version", "source", "content_type", "state", "attempts",
        "max_attempts",
        "crashes", "lease_owner", "lease_token", "lease_expires_at", "result", "created_at",
        "scheduled_at",
        "attempted_at", "finished_at", "reported_at",
    ]

    /// Parses one row selected with `columns`.
    init(row: [String?]) throws(QueueError) {
        guard row.count == Self.columns.count else {
            throw QueueError("a job row has \(row.count) columns")
        }
        func text(_ index: Int) throws(QueueError) -> String {
            guard let value = row[index] else {
                throw QueueError("job column \(Self.columns[index]) is NULL")
            }
            return value
        }
        func integer(_ index: Int) throws(QueueError) -> Int64 {
            guard let value = Int64(try text(index)) else {
                throw QueueError("job column \(Self.columns[index]) is not an integer: \(row[index] ?? "")")
            }
            return value
        }
        func optionalInteger(_ index: Int) throws(QueueError) -> Int64? {
            row[index] == nil ? nil : try integer(index)
        }
        func time(_ index: Int) throws(QueueError) -> Timestamp? {
            try optionalInteger(index).map { Timestamp(milliseconds: $0) }
        }
        guard let state = JobState(rawValue: try text(6)) else {
            throw QueueError("unknown job state \(row[6] ?? "")")
        }
        id = try integer(0)
        bucket = try text(1)
        path = try text(2)
        version = try text(3)
        source = try text(4)
        declaredContentType = row[5]
        self.state = state
        attempts = Int(try integer(7))
        maxAttempts = Int(try integer(8))
        crashes = Int(try integer(9))
        leaseOwner = row[10]
        leaseToken = try optionalInteger(11)
        leaseExpiresAt = try time(12)
        if let result = row[13] {
            if state == .completed {
                metadata = try? WireJSON.decode(CompletionMetadata.self, from: result.utf8)
            } else {
                error = try? WireJSON.decode(VariantsError.self, from: result.utf8)
            }
        }
        createdAt = try time(14) ?? Timestamp(milliseconds: 0)
        scheduledAt = try time(15) ?? createdAt
        attemptedAt = try time(16)
        finishedAt = try time(17)
        reportedAt = try time(18)
    }
}
