/// The shared secret TCP clients send as `Authorization: Bearer <secret>`.
struct BearerSecret: Sendable {
    private let expected: [UInt8]

    init(_ secret: String) {
        expected = Array(secret.utf8)
    }

    /// Whether the header carries the secret, compared in constant time.
    func admits(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let scheme = "bearer "
        guard authorization.prefix(scheme.count).lowercased() == scheme else { return false }
        return ConstantTime.equal(Array(authorization.utf8.dropFirst(scheme.count)), expected)
    }

    /// The challenge of every endpoint only the storage server may call, so a caller is answered alike
    /// whichever it reached.
    ///
    /// - Throws: `401 unauthorized` (answered with `WWW-Authenticate: Bearer`) unless the request carries the
    ///   secret.
    func authorize(_ request: HTTPRequest) throws(ServiceError) {
        guard admits(request.headers["authorization"]) else {
            throw ServiceError(.unauthorized, "send the shared secret as 'Authorization: Bearer <secret>'")
        }
    }
}
