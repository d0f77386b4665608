/// What a PDF's own bytes say when poppler cannot open it, so the refusal's reason comes from them rather
/// than from poppler's message: whether a trailer names an encryption dictionary, and whether the file ends
/// before its end-of-file marker.
struct PDFStructure {
    /// A trailer or cross-reference stream names an `/Encrypt` dictionary. (`/EncryptMetadata` is a key of
    /// that dictionary, not the name of one.)
    let encrypted: Bool
    /// No `%%EOF` in the last kilobyte, where every writer puts it.
    let truncated: Bool

    private static let encryptKey = Array("/Encrypt".utf8)
    private static let endMarker = Array("%%EOF".utf8)

    init(_ bytes: [UInt8]) {
        encrypted = Self.hasEncryptKey(bytes)
        truncated = !Self.contains(Self.endMarker, in: bytes, from: max(0, bytes.count - 1024))
    }

    /// `/Encrypt` followed by a delimiter or white space: a key named exactly that.
    private static func hasEncryptKey(_ bytes: [UInt8]) -> Bool {
        var start = 0
        while let slash = ByteSearch.firstIndex(of: UInt8(ascii: "/"), in: bytes, from: start) {
            let end = slash + encryptKey.count
            if end <= bytes.count, bytes[slash..<end].elementsEqual(encryptKey),
                end == bytes.count || !isRegular(bytes[end])
            {
                return true
            }
            start = slash + 1
        }
        return false
    }

    private static func contains(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Bool {
        guard bytes.count - start >= needle.count else { return false }
        return (start...(bytes.count - needle.count)).contains {
            bytes[$0..<$0 + needle.count].elementsEqual(needle)
        }
    }

    /// A PDF regular character: neither white space nor a delimiter, so it would continue a name.
    private static func isRegular(_ byte: UInt8) -> Bool {
        !" \t\r\n\u{0C}\0()<>[]{}/%".utf8.contains(byte)
    }
}
