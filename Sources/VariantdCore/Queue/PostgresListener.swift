import Foundation
import Synchronization

/// A thread holding its own connection in `LISTEN` on one channel, signalling a `WakeSignal` on every
/// notification. Reconnects after a drop, and until `LISTEN` is taken again (a standby refuses it until
/// promoted); the caller's polling covers the gap.
///
/// `@unchecked Sendable` because the connection is used by the listening thread alone.
final class PostgresListener: @unchecked Sendable {
    private let stopped = Atomic<Bool>(false)
    private let connection: PostgresConnection
    private let channel: String
    private let wake: WakeSignal

    init(url: String, channel: String, wake: WakeSignal) throws(QueueError) {
        connection = try PostgresConnection(url: url)
        try connection.query("LISTEN \(channel)")
        self.channel = channel
        self.wake = wake
        Thread.detachNewThread { self.listen() }
    }

    /// Ends the thread within a quarter of a second; its connection closes with it.
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    private func listen() {
        var listening = true
        while !stopped.load(ordering: .acquiring) {
            do throws(QueueError) {
                if !listening || !connection.isConnected() {
                    listening = false
                    Thread.sleep(forTimeInterval: 1)
                    if !connection.isConnected() { try connection.reset() }
                    try connection.query("LISTEN \(channel)")
                    listening = true
                    wake.signal()
                }
                if !(try connection.notifications(waiting: .milliseconds(250))).isEmpty { wake.signal() }
            } catch {
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
    }
}
