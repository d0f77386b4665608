/// Where the daemon listens: a loopback TCP address or a Unix socket, nothing reachable from elsewhere.
enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A numeric loopback host (`127.0.0.1`, `::1`) and a port; port 0 asks for a free one.
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    /// Reads `127.0.0.1:8089`, `localhost:8089`, `[::1]:8089` or `unix:/path/to.sock`.
    init(parsing text: String) throws(UsageError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            // sockaddr_un holds 108 bytes with the terminating NUL.
            guard !path.isEmpty, path.utf8.count < 108, !path.contains("\0") else {
                throw UsageError("'--listen unix:PATH' needs a socket path shorter than 108 bytes")
            }
            self = .unix(path: path)
            return
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw UsageError("'--listen' takes HOST:PORT or unix:PATH, got '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        guard Self.isLoopback(host) else {
            throw UsageError(
                "'--listen' takes a loopback address (127.0.0.1, ::1) or unix:PATH, got '\(host)'")
        }
        self = .tcp(host: host, port: port)
    }

    private static func isLoopback(_ host: String) -> Bool {
        if host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in part.count <= 3 && UInt8(part) != nil }
    }

    var isTCP: Bool {
        if case .tcp = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}
