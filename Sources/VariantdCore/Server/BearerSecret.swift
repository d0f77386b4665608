/// The shared secret TCP clients send as `Authorization: Bearer <secret>`.
struct BearerSecret: Sendable {
    private let expected: [UInt8]

    init(_ secret: String) {
        expected = Array(secret.utf8)
    }

    /// Whether the header carries the secret; the comparison takes the same time wherever the first
    /// difference is, so the secret cannot be found a byte at a time.
    func admits(_ authorization: String?) -> Bool {
        guard let authorization else { return false }
        let scheme = "bearer "
        guard authorization.prefix(scheme.count).lowercased() == scheme else { return false }
        let given = Array(authorization.utf8.dropFirst(scheme.count))
        // Lengths are not secret; folded into a byte, lengths 256 apart would compare equal, and the secret
        // followed by anything 256 bytes long would be taken for it.
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
