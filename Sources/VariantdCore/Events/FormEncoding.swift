/// The form encoding S3 event messages write object keys in (`application/x-www-form-urlencoded`): `+` is a
/// space, `%XX` a byte, the bytes UTF-8.
///
/// Decoded strictly rather than with Foundation's lenient `removingPercentEncoding`: a key read wrong would
/// name another object, so a malformed one refuses the body instead.
enum FormEncoding {
    /// The text decoded; nil for a `%` not followed by two hex digits, or bytes that are not UTF-8.
    static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var encoded = text.utf8.makeIterator()
        while let byte = encoded.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = encoded.next().flatMap(hexValue), let low = encoded.next().flatMap(hexValue)
                else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
