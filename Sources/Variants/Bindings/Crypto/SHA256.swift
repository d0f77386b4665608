internal import CCrypto
package import Foundation

/// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions where present.
///
/// `package` so the batch command can hash sources and manifest keys through this same door.
package enum SHA256 {
    /// The lowercase hex digest.
    package static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let written = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer {
                CCrypto.SHA256(
                    buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, $0.baseAddress)
            }
        }
        LibCrypto.check(written != nil, "SHA256")
        return hexString(digest)
    }

    /// Bytes as lowercase hex, two digits each.
    package static func hexString(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A digest fed in pieces, for data too large to hold at once (a batch hashes sources of any size).
    ///
    /// A class because it owns an OpenSSL context, freed when the value goes away.
    package final class Incremental {
        private let context: OpaquePointer

        package init() {
            let context = EVP_MD_CTX_new()
            LibCrypto.check(context != nil, "EVP_MD_CTX_new")
            self.context = context!
            LibCrypto.check(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "EVP_DigestInit_ex")
        }

        deinit {
            EVP_MD_CTX_free(context)
        }

        /// Feeds bytes where they lie: an array, a slice of one, a `Data`, none copied first.
        package func update(_ bytes: some ContiguousBytes) {
            let result = bytes.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            LibCrypto.check(result == 1, "EVP_DigestUpdate")
        }

        /// The lowercase hex digest of everything fed so far; call once.
        package func finish() -> String {
            var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
            var length: UInt32 = 0
            let result = digest.withUnsafeMutableBufferPointer {
                EVP_DigestFinal_ex(context, $0.baseAddress, &length)
            }
            LibCrypto.check(result == 1, "EVP_DigestFinal_ex")
            return hexString(digest)
        }
    }
}
