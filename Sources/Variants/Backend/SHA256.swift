internal import CCrypto

/// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions where present.
///
/// `package` so the batch command can hash sources and manifest keys through this same door.
package enum SHA256 {
    /// The lowercase hex digest.
    package static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBytes { buffer in
            _ = digest.withUnsafeMutableBufferPointer {
                CCrypto.SHA256(
                    buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, $0.baseAddress)
            }
        }
        return hexString(digest)
    }

    static func hexString(_ bytes: [UInt8]) -> String {
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
        private let context: OpaquePointer?

        package init() {
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        }

        deinit {
            EVP_MD_CTX_free(context)
        }

        package func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }

        /// The lowercase hex digest of everything fed so far; call once.
        package func finish() -> String {
            var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
            var length: UInt32 = 0
            _ = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
            return hexString(digest)
        }
    }
}
