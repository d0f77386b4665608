/// A queue operation that could not be carried out: the database refused, was unreachable, or the queue
/// location is wrong. Never about a job's own outcome, which is a `VariantsError` stored in the job.
public struct QueueError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The database was locked by another writer past the busy timeout; trying again later can succeed.
    public var busy: Bool

    public init(_ message: String, busy: Bool = false) {
        self.message = message
        self.busy = busy
    }

    public var description: String { message }
}
