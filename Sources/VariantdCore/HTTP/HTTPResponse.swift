import Variants

/// One HTTP answer: status, headers and body.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// A stored file sent as the body in place of `body`, read by the server while it sends.
    var file: String? = nil
    /// A spool file sent the same way.
    var spooled: HeldFile? = nil
    /// Only this part of the body (of `body`, the file or the spool file) is sent: a `206`'s.
    var range: ByteRange? = nil

    /// A JSON body in the wire form.
    static func json(
        _ value: some Encodable, status: Int = 200, headers: [(name: String, value: String)] = []
    )
        -> HTTPResponse
    {
        let body = (try? WireJSON.encode(value)) ?? Array(#"{"error":"internal_error"}"#.utf8)
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers, body: body + [0x0A])
    }

    /// The wire error JSON with the status its code maps to.
    static func error(_ error: AnswerError, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        json(error, status: error.statusCode, headers: headers)
    }

    static func error(_ error: VariantsError, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        self.error(AnswerError(error), headers: headers)
    }

    /// `405 method_not_allowed` for a known path asked with another method, with the `Allow` RFC 9110 §15.5.6
    /// requires; a path that takes `GET` takes `HEAD` too.
    static func methodNotAllowed(_ path: String, takes method: String) -> HTTPResponse {
        let allowed = method == "GET" ? "GET, HEAD" : method
        return error(
            .service(ServiceError(.methodNotAllowed, "\(path) takes \(allowed)")),
            headers: [("Allow", allowed)])
    }

    static func text(_ text: String, contentType: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}
