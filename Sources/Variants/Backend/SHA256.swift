internal import CCrypto

/// SHA-256 through OpenSSL's libcrypto, which uses the CPU's SHA extensions where present.
enum SHA256 {
    /// The lowercase hex digest.
    static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBytes { buffer in
            _ = digest.withUnsafeMutableBufferPointer {
                CCrypto.SHA256(buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count, $0.baseAddress)
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
}
