/// One complete HTTP request as libmicrohttpd parsed it; the body is whole unless it was over the limit.
struct HTTPRequest: Sendable {
    var method: String
    /// Percent-decoded, without the query.
    var path: String
    /// Path and query exactly as the client sent them, before any decoding: what a signed URL signs.
    var target: String
    /// Header names in lower case; a repeated header keeps its last value.
    var headers: [String: String]
    var query: [String: String]
    var body: [UInt8]
    /// The body was over the server's limit and was not kept.
    var bodyTooLarge: Bool
}
