import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback ports for the servers tests start: several copies of the suite run at once on one machine, so
/// no port is ever fixed.
enum LoopbackPorts {
    struct Exhausted: Error, CustomStringConvertible {
        var description: String { "no free loopback port" }
    }

    /// `count` distinct loopback ports nobody listens on right now (all held open until all are found).
    static func free(_ count: Int) throws -> [Int] {
        var descriptors: [Int32] = []
        defer {
            for descriptor in descriptors { close(descriptor) }
        }
        var ports: [Int] = []
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            descriptors.append(descriptor)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard bound else { throw Exhausted() }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
