import Synchronization

/// The PostgreSQL connections of one process: up to `size`, opened when first needed and shared by every
/// worker slot, so a process holds a handful of connections however many jobs it runs at once, and
/// concurrent claims and finishes do not queue behind each other on one connection.
///
/// A connection is lent to one call at a time and runs it on a Dispatch thread (a database call blocks);
/// a dropped connection, a session the server ended while the connection sat idle included, is
/// re-established before its next use, so nothing is sent on a dead one. So is a session whose server
/// refused a statement for being read-only or shutting down (a standby not yet promoted behind the address
/// of a fail-over): a new connection reaches whichever server takes the writes then.
final class PostgresPool: Sendable {
    let url: String
    let size: Int
    private let state = Mutex(State())

    private struct State {
        var idle: [Lent] = []
        var opened = 0
        var waiting: [CheckedContinuation<Lent, Never>] = []
    }

    init(url: String, size: Int) {
        self.url = url
        self.size = max(1, size)
    }

    /// Runs `body` on a connection of the pool, waiting for one to be free.
    ///
    /// A connection that breaks while `body` runs leaves its outcome unknown (a write may have committed
    /// before the break). `rerunnable` says running `body` again then is harmless: it is run once more
    /// from its start on the connection re-established (never a transaction's remainder on its own). A
    /// statement the server refused for being read-only or shutting down is treated alike.
    func run<T: Sendable>(
        rerunnable: Bool, _ body: @escaping @Sendable (PostgresConnection) throws(QueueError) -> T
    )
        async throws(QueueError) -> T
    {
        let lent = try await acquire()
        let result = await Blocking.run { () throws(QueueError) in
            let connection = lent.connection
            if !connection.isConnected() { try connection.reset() }
            do throws(QueueError) {
                return try body(connection)
            } catch {
                guard rerunnable, !connection.isConnected() else { throw error }
                try connection.reset()
                return try body(connection)
            }
        }
        release(lent)
        return try result.get()
    }

    private func acquire() async throws(QueueError) -> Lent {
        let free = state.withLock { state -> Lent?? in
            if let lent = state.idle.popLast() { return .some(lent) }
            guard state.opened < size else { return .none }
            state.opened += 1
            return .some(nil)
        }
        switch free {
        case .some(.some(let lent)):
            return lent
        case .some(.none):
            let url = url
            let opened = await Blocking.run { () throws(QueueError) in
                Lent(connection: try PostgresConnection(url: url))
            }
            if case .failure = opened { state.withLock { $0.opened -= 1 } }
            return try opened.get()
        case .none:
            return await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Lent? in
                    if let lent = state.idle.popLast() { return lent }
                    state.waiting.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }

    private func release(_ lent: Lent) {
        let waiter = state.withLock { state -> CheckedContinuation<Lent, Never>? in
            guard !state.waiting.isEmpty else {
                state.idle.append(lent)
                return nil
            }
            return state.waiting.removeFirst()
        }
        waiter?.resume(returning: lent)
    }

    /// A connection crossing threads: only the call it is lent to touches it.
    private struct Lent: @unchecked Sendable {
        let connection: PostgresConnection
    }
}
