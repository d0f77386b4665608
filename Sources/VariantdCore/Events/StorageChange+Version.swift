import Variants

extension StorageChange {
    /// The longest version kept as written; a longer one is its SHA-256, so a hostile body cannot make the
    /// daemon keep long tokens.
    static let maximumVersionBytes = 200

    /// A version token: the kind's word, then the fields that differ between two writes (or deletes) of one
    /// key, `written:md5=…,mtime=…` — readable in logs, as real tokens are base64, hex and digits.
    ///
    /// A value's bytes outside `A-Z a-z 0-9 + / = . _ -` are `%XX`-escaped, so no value can forge the `,`
    /// between fields; an absent field is left out, its name with it. A token longer than
    /// `maximumVersionBytes` becomes `sha256:` and the hex digest of that text.
    static func version(_ kind: Kind, _ fields: [(name: String, value: String?)]) -> String {
        var text = Array((kind == .written ? "written:" : "deleted:").utf8)
        var first = true
        for (name, value) in fields {
            guard let value else { continue }
            if !first { text.append(UInt8(ascii: ",")) }
            first = false
            text.append(contentsOf: name.utf8)
            text.append(UInt8(ascii: "="))
            for byte in value.utf8 {
                if isPlain(byte) {
                    text.append(byte)
                } else {
                    let hex = Array("0123456789ABCDEF".utf8)
                    text.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
            }
        }
        guard text.count <= maximumVersionBytes else { return "sha256:" + SHA256.hex(text) }
        return String(decoding: text, as: UTF8.self)
    }

    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "-"):
            true
        default: false
        }
    }
}
