internal import CCrypto
import Variants

/// HMAC-SHA256 through OpenSSL's libcrypto: the only file in this module that calls it.
enum HMAC {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let written = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                digest.withUnsafeMutableBufferPointer { out in
                    CCrypto.HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), messageBytes.count,
                        out.baseAddress, &length)
                }
            }
        }
        LibCrypto.check(written != nil, "HMAC")
        return Array(digest.prefix(Int(length)))
    }

    /// The lowercase hex HMAC-SHA256 of `message` under `key`.
    static func sha256Hex(key: [UInt8], message: [UInt8]) -> String {
        SHA256.hexString(sha256(key: key, message: message))
    }
}
