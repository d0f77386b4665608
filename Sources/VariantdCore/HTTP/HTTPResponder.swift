/// What answers the requests an `HTTPServer` receives.
///
/// Both methods run on one of the server's I/O threads and must not block it: cheap answers come back
/// `.now`, work that waits (a render) comes back `.later` and runs as a task.
protocol HTTPResponder: Sendable {
    /// Looks at a request's head (its body empty) before any body byte is read.
    func admit(_ head: HTTPRequest) -> BodyAdmission

    func respond(to request: HTTPRequest) -> HTTPReply
}

extension HTTPResponder {
    func admit(_ head: HTTPRequest) -> BodyAdmission { .read }
}

/// What a request's head decided about its body.
enum BodyAdmission: Sendable {
    /// Read it, up to the server's `maxBodyBytes`.
    case read
    /// Read it, up to this many bytes.
    case readUpTo(Int)
    /// Refused from the head alone: this is the answer, and the body is never read.
    case answer(HTTPResponse)
}

/// An answer now, or the work that will produce it.
enum HTTPReply: Sendable {
    case now(HTTPResponse)
    case later(@Sendable () async -> HTTPResponse)
}
