import Testing
import Variants

@testable import VariantdCore

/// The libcrypto doors against published vectors.
@Suite struct DigestTests {
    @Test func hmacMatchesRFC4231() {
        let mac = HMAC.sha256Hex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(mac == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func incrementalDigestEqualsTheOneShot() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let digest = SHA256.Incremental()
        digest.update(Array(bytes[..<12_345]))
        digest.update(Array(bytes[12_345...]))
        #expect(digest.finish() == SHA256.hex(bytes))
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(SHA256.hex(Array("abc".utf8)) == abc)
    }
}
