/// What an encoded file's own header says, read here without libvips or libheif so that the sizes the
/// pipeline reports are checked by an independent reader; and whether any metadata block survived.
struct EncodedFile {
    enum Format: Equatable { case jpeg, png, webp, avif }

    let format: Format
    let width: Int
    let height: Int
    /// EXIF, XMP or GPS data: APP1 in JPEG, eXIf/tEXt/iTXt/zTXt in PNG, EXIF/XMP chunks in WebP, an `Exif` or
    /// `mime` item in AVIF.
    let hasMetadata: Bool
    /// A JPEG whose frame is progressive (SOF2) rather than baseline; false for every other format.
    var progressive = false

    init?(_ bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8]) {
            guard let parsed = Self.jpeg(bytes) else { return nil }
            (format, width, height, hasMetadata, progressive) = (
                .jpeg, parsed.0, parsed.1, parsed.2, parsed.3
            )
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard let parsed = Self.png(bytes) else { return nil }
            (format, width, height, hasMetadata) = (.png, parsed.0, parsed.1, parsed.2)
        } else if bytes.count > 30, bytes[8..<12].elementsEqual("WEBP".utf8) {
            guard let parsed = Self.webp(bytes) else { return nil }
            (format, width, height, hasMetadata) = (.webp, parsed.0, parsed.1, parsed.2)
        } else if bytes.count > 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            guard let parsed = Self.avif(bytes) else { return nil }
            (format, width, height, hasMetadata) = (.avif, parsed.0, parsed.1, parsed.2)
        } else {
            return nil
        }
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) << 16 | u16(b, i + 2) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | Int(b[i + 2]) << 16 }

    private static func jpeg(_ b: [UInt8]) -> (Int, Int, Bool, Bool)? {
        var i = 2
        var metadata = false
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            let length = u16(b, i + 2)
            if marker == 0xE1 { metadata = true }
            if (0xC0...0xC3).contains(marker), i + 9 <= b.count {
                return (u16(b, i + 7), u16(b, i + 5), metadata, marker == 0xC2)
            }
            i += 2 + length
        }
        return nil
    }

    private static func png(_ b: [UInt8]) -> (Int, Int, Bool)? {
        guard b.count >= 24 else { return nil }
        var i = 8
        var metadata = false
        while i + 8 <= b.count {
            let type = String(decoding: b[i + 4..<i + 8], as: UTF8.self)
            if ["eXIf", "tEXt", "iTXt", "zTXt"].contains(type) { metadata = true }
            i += 12 + u32(b, i)
        }
        return (u32(b, 16), u32(b, 20), metadata)
    }

    private static func webp(_ b: [UInt8]) -> (Int, Int, Bool)? {
        var i = 12
        var size: (Int, Int)?
        var metadata = false
        while i + 8 <= b.count {
            let type = String(decoding: b[i..<i + 4], as: UTF8.self)
            let length = le16(b, i + 4) | le16(b, i + 6) << 16
            let body = i + 8
            switch type {
            case "VP8X" where body + 10 <= b.count: size = (le24(b, body + 4) + 1, le24(b, body + 7) + 1)
            case "VP8 " where body + 10 <= b.count && size == nil:
                size = (le16(b, body + 6) & 0x3FFF, le16(b, body + 8) & 0x3FFF)
            case "VP8L" where body + 5 <= b.count && size == nil:
                let bits = le16(b, body + 1) | le16(b, body + 3) << 16
                size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            case "EXIF", "XMP ": metadata = true
            default: break
            }
            i = body + length + (length & 1)
        }
        return size.map { ($0.0, $0.1, metadata) }
    }

    /// The first `ispe` property, and whether an `Exif` or `mime` item is declared in `iinf`.
    private static func avif(_ b: [UInt8]) -> (Int, Int, Bool)? {
        guard let ispe = find("ispe", in: b), ispe + 20 <= b.count else { return nil }
        let metadata = find("Exif", in: b) != nil || find("mime", in: b) != nil
        return (u32(b, ispe + 8), u32(b, ispe + 12), metadata)
    }

    private static func find(_ tag: String, in b: [UInt8]) -> Int? {
        let needle = Array(tag.utf8)
        return b.indices.dropLast(4).first { b[$0..<$0 + 4].elementsEqual(needle) }
    }
}
