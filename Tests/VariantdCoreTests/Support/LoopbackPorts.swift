import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback ports for the servers tests start. Several copies of the suite run at once on one machine, so no
/// port is ever fixed. They come from below the kernel's ephemeral range: a port from inside it could be
/// taken as the local end of some outgoing connection between the moment it is found free and the moment
/// the server binds it — or while an outage test has the server down — and the server would then fail to
/// start. A port is never handed out twice in one process, so a stopped server's ports stay its own.
enum LoopbackPorts {
    struct Exhausted: Error, CustomStringConvertible {
        var description: String { "no free loopback port below the ephemeral range" }
    }

    private static let handedOut = Mutex<Set<Int>>([])

    /// `count` distinct loopback ports nobody listens on right now, from a random place in the range.
    static func free(_ count: Int) throws -> [Int] {
        let range = 10_000..<ephemeralStart()
        return try handedOut.withLock { handedOut in
            var ports: [Int] = []
            var candidate = Int.random(in: range)
            for _ in range where ports.count < count {
                candidate = candidate + 1 < range.upperBound ? candidate + 1 : range.lowerBound
                if !handedOut.contains(candidate) && isFree(candidate) {
                    handedOut.insert(candidate)
                    ports.append(candidate)
                }
            }
            guard ports.count == count else { throw Exhausted() }
            return ports
        }
    }

    /// The first port the kernel may give an outgoing connection (`ip_local_port_range`; 32768 by default).
    private static func ephemeralStart() -> Int {
        let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let first = text?.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) }
        return max(first ?? 32_768, 20_000)
    }

    /// Whether a listening socket can be opened on `port` of 127.0.0.1 now.
    private static func isFree(_ port: Int) -> Bool {
        withSocket(at: port) { descriptor, address, length in
            bind(descriptor, address, length) == 0 && listen(descriptor, 1) == 0
        }
    }

    /// Whether something listens on `port` of 127.0.0.1 now.
    static func accepts(_ port: Int) -> Bool {
        withSocket(at: port) { descriptor, address, length in connect(descriptor, address, length) == 0 }
    }

    /// Runs `body` with a new TCP socket (closed after) and the address 127.0.0.1:`port`; false when no
    /// socket can be made.
    private static func withSocket(
        at port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
    ) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
