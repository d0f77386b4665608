/// Comparing a secret the client sent with the one expected, for the bearer secret and signed URLs.
enum ConstantTime {
    /// Whether `given` is exactly `expected`, in a time that depends on `expected`'s length only, so a
    /// secret cannot be found a byte at a time. Lengths are not secret and are compared whole: folded
    /// into a byte, lengths 256 apart would compare equal, and a secret followed by anything 256 bytes
    /// long would be taken for it.
    static func equal(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
