import Foundation

/// Percent-encoding as AWS Signature V4 defines it: every byte of the UTF-8 form except `A-Z a-z 0-9 - _ . ~`
/// becomes `%XX` (upper-case hex). libcurl signs the URL as written, so the URL must already be canonical.
enum S3Encoding {
    /// An object key in a URL path: `/` separates segments and stays.
    static func path(_ key: String) -> String { encode(key, keepSlash: true) }

    /// A query string with its parameters sorted by name, as the canonical request orders them.
    static func query(_ parameters: [(String, String)]) -> String {
        parameters.sorted { $0.0 < $1.0 }
            .map { "\(encode($0.0, keepSlash: false))=\(encode($0.1, keepSlash: false))" }
            .joined(separator: "&")
    }

    /// A key as a listing asked for with `encoding-type=url` spells it (form encoding: `+` is a space, `%XX`
    /// a byte, decoded by Foundation as a render URL's query is); nil when that is not what it is, or the
    /// bytes are not UTF-8.
    static func listedKey(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    private static func encode(_ text: String, keepSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."),
                UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepSlash:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
