import Dispatch

/// A database connection used by one thread at a time: calls queue on a private serial queue, off Swift's
/// cooperative threads, because a database call may block (a lock wait, a slow network).
///
/// `@unchecked Sendable` because the connection is touched only inside blocks run on `queue`.
final class SerializedConnection<Connection>: @unchecked Sendable {
    private let queue: DispatchQueue
    private let connection: Connection

    init(_ connection: Connection, label: String) {
        self.connection = connection
        queue = DispatchQueue(label: label)
    }

    func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws(QueueError) -> T)
        async throws(QueueError)
        -> T
    {
        let result: Result<T, QueueError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(QueueError) in try body(self.connection) })
            }
        }
        return try result.get()
    }
}
