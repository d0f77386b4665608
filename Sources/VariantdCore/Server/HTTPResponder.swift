/// What answers the requests an `HTTPServer` receives.
///
/// `respond(to:)` runs on one of the server's I/O threads and must not block it: cheap answers come back
/// `.now`, work that waits (a render) comes back `.later` and runs as a task.
protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest) -> HTTPReply
}

/// An answer now, or the work that will produce it.
enum HTTPReply: Sendable {
    case now(HTTPResponse)
    case later(@Sendable () async -> HTTPResponse)
}
