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
}
