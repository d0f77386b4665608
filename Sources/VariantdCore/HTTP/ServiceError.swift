/// What the daemon refuses on its own account, which the library never says: a caller without the shared
/// secret or access to a private bucket, and work it cannot take now. Same wire shape as `VariantsError`
/// (`{"statusCode", "error", "message"}`), so callers cannot tell which side answered.
struct ServiceError: Error, Sendable, Equatable, Encodable {
    /// Stable snake_case codes, used on the wire and in logs; never renamed once shipped.
    enum Code: String, Sendable, CaseIterable, Encodable {
        /// No valid `Authorization: Bearer` secret (answered with `WWW-Authenticate: Bearer`).
        case unauthorized
        /// A private bucket's rendition without the secret or a valid signed URL.
        case forbidden
        /// A new transform past the month's allowance of an account whose overage is refused; transforms
        /// counted this month, declared variants and the plain picture are still served.
        case planFeatureLocked = "plan_feature_locked"
        /// Every render slot and the wait queue are full, the daemon is draining, or the job queue or the
        /// object store (`store_unavailable`) cannot be reached now: nothing is wrong with the input; retry
        /// after `Retry-After`.
        case transformBusy = "transform_busy"
        /// A known path asked with a method it does not take (answered with `Allow`).
        case methodNotAllowed = "method_not_allowed"
        /// A `Range` no byte of the rendition is in (answered with `Content-Range: bytes */<size>`).
        case rangeNotSatisfiable = "range_not_satisfiable"
        /// A request target over the server's limit (8 KiB), answered from the head alone.
        case uriTooLong = "uri_too_long"
        /// A request line and headers over the server's limit (32 KiB together), answered from the head alone.
        case headerFieldsTooLarge = "header_fields_too_large"

        var statusCode: Int {
            switch self {
            case .unauthorized: 401
            case .forbidden, .planFeatureLocked: 403
            case .methodNotAllowed: 405
            case .uriTooLong: 414
            case .rangeNotSatisfiable: 416
            case .headerFieldsTooLarge: 431
            case .transformBusy: 503
            }
        }
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var statusCode: Int { code.statusCode }

    private enum CodingKeys: String, CodingKey {
        case statusCode, error, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.statusCode, forKey: .statusCode)
        try container.encode(code, forKey: .error)
        try container.encode(message, forKey: .message)
    }
}
