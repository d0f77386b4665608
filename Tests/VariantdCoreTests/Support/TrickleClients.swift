import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback TCP clients that send their request a byte at a time — a byte per `pace` each — as a slow or
/// hostile client does, and note when the server closes them.
///
/// `@unchecked Sendable`: a test hands it to one thread to trickle and reads it only after that thread is
/// done.
final class TrickleClients: @unchecked Sendable {
    private var sockets: [Int32]
    /// Bytes each client sent before the server closed it; nil while it is open.
    private(set) var sentBeforeClose: [Int?]
    /// What each client received.
    private(set) var received: [[UInt8]]

    /// Opens `count` connections to `127.0.0.1:port` (a connection the server refuses at once is closed at
    /// its first wait).
    init(count: Int, port: Int) throws {
        sockets = []
        for _ in 0..<count {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard socket >= 0, connected == 0 else {
                if socket >= 0 { close(socket) }
                throw TrickleFailure(description: "cannot connect to port \(port): errno \(errno)")
            }
            sockets.append(socket)
        }
        sentBeforeClose = Array(repeating: nil, count: count)
        received = Array(repeating: [], count: count)
    }

    deinit {
        for socket in sockets { close(socket) }
    }

    var open: Int { sentBeforeClose.filter { $0 == nil }.count }

    /// Sends `prefix` at once on every client, then `bytes` one at a time: after each byte every client
    /// waits up to `pace` for the server to close it. Returns when every client is closed or every byte was
    /// sent.
    func trickle(_ bytes: [UInt8], prefix: [UInt8] = [], pace: Duration) {
        for index in sockets.indices where !prefix.isEmpty {
            if send(sockets[index], prefix, prefix.count, Int32(MSG_NOSIGNAL)) != prefix.count {
                sentBeforeClose[index] = 0
            }
        }
        for (position, byte) in bytes.enumerated() {
            for index in sockets.indices where sentBeforeClose[index] == nil {
                if send(sockets[index], [byte], 1, Int32(MSG_NOSIGNAL)) != 1 {
                    sentBeforeClose[index] = position
                }
            }
            waitForCloses(upTo: pace, sent: position + 1)
            if open == 0 { return }
        }
    }

    /// Waits `pace` for the server to close clients: a readable socket whose read ends (0 bytes or an error)
    /// was closed.
    func waitForCloses(upTo pace: Duration, sent: Int) {
        let deadline = ContinuousClock.now + pace
        while open > 0, ContinuousClock.now < deadline {
            let waiting = sockets.indices.filter { sentBeforeClose[$0] == nil }
            var polled = waiting.map { pollfd(fd: sockets[$0], events: Int16(POLLIN), revents: 0) }
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(max(1, left / .milliseconds(1)))
            guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { continue }
            for (index, entry) in zip(waiting, polled) where entry.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = recv(sockets[index], &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    received[index] += buffer[..<count]
                } else {
                    sentBeforeClose[index] = sent
                }
            }
        }
    }
}

struct TrickleFailure: Error, CustomStringConvertible {
    var description: String
}
