import Testing

@testable import VariantdCore

@Suite struct ConstantTimeTests {
    private let secret = Array("a-secret-of-some-length".utf8)

    @Test func onlyTheSameBytesAreEqual() {
        #expect(ConstantTime.equal(secret, secret))
        #expect(!ConstantTime.equal(secret.dropLast() + [0x21], secret))
        #expect(!ConstantTime.equal([0x21] + secret.dropFirst(), secret))
        #expect(!ConstantTime.equal([], secret))
        #expect(!ConstantTime.equal(Array(secret.prefix(5)), secret))
    }

    /// The secret followed by anything whose length is a multiple of 256 once compared equal.
    @Test(arguments: [1, 256, 512])
    func aSecretFollowedByMoreIsNotTheSecret(extra: Int) {
        #expect(!ConstantTime.equal(secret + Array(repeating: 0x2B, count: extra), secret))
    }
}
