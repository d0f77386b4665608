/// Standard base64 (RFC 4648 alphabet), kept here so the module needs no Foundation.
enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8
    )

    /// Each byte's 6-bit value, or 0xFF for bytes outside the alphabet.
    private static let values: InlineArray<256, UInt8> = {
        var table = InlineArray<256, UInt8>(repeating: 0xFF)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let count = min(3, bytes.count - start)
            var group = 0
            for offset in 0..<3 {
                group = group << 8 | (offset < count ? Int(bytes[start + offset]) : 0)
            }
            for position in 0..<4 {
                let sextet = group >> (18 - 6 * position) & 63
                text.append(position <= count ? alphabet[sextet] : UInt8(ascii: "="))
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Accepts padded or unpadded text; anything else in it, or a length no encoder produces, throws.
    static func decode(_ text: String) throws(ThumbHashError) -> [UInt8] {
        var characters = Array(text.utf8)
        if characters.count % 4 == 0 {
            characters.removeLast(characters.suffix(2).reversed().prefix { $0 == UInt8(ascii: "=") }.count)
        }
        guard characters.count % 4 != 1 else {
            throw .invalidBase64
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var group = 0
        var bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xFF else {
                throw .invalidBase64
            }
            group = group << 6 | Int(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: group >> bits))
                group &= (1 << bits) - 1
            }
        }
        return bytes
    }
}
