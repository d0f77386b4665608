import Charts

/// Text put into the contact sheet's HTML: every path, message and type comes from a manifest, which
/// comes from file names and bytes anyone could have chosen, so all of it goes through here.
enum HTMLText {
    /// Safe inside an element or a double-quoted attribute.
    static func escaped(_ text: String) -> String { MarkupText.escaped(text) }

    /// A relative path as a URL path: every byte but unreserved characters and `/` percent-encoded, so a
    /// `#`, `?`, `%` or space in a folder name still links to the file.
    static func urlPath(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(digits[Int(byte >> 4)])
                result.unicodeScalars.append(digits[Int(byte & 0xF)])
            }
        }
        return result
    }

    /// A count with thousands separators: `12,345`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// Bytes for people: `930 B`, `12.3 kB`, `4.56 MB`, `1.2 GB` (powers of 1000). A size is scaled while
    /// its figure to a tenth reaches 1000, so that 999,960 bytes read `1.0 MB`, not `1000.0 kB`.
    static func bytes(_ value: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var scaled = Double(value)
        var unit = 0
        while (unit == 0 ? scaled : (scaled * 10).rounded() / 10) >= 1000, unit < units.count - 1 {
            scaled /= 1000
            unit += 1
        }
        if unit == 0 { return "\(value) B" }
        let tenths = Int((scaled * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
