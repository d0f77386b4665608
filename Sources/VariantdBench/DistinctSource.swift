import Variants

/// The n-th copy of a picture that differs from every other copy in its bytes and in nothing it shows: the
/// daemon keys renditions by the source's SHA-256, so a timed request for a copy finds nothing stored and
/// does the whole job, as a new upload does.
enum DistinctSource {
    /// The copy carries a note in the place its format keeps for one: a JPEG comment segment after the start
    /// marker, a PNG `tEXt` chunk after `IHDR`, a GIF comment extension after the colour table, a WebP chunk
    /// of an unknown type at the end of the RIFF, an ISO-BMFF (HEIC, AVIF) `free` box at the end. nil for
    /// bytes of none of these formats.
    static func copy(_ bytes: [UInt8], number: Int) -> [UInt8]? {
        let note = Array("variantd bench copy \(number)".utf8)
        if bytes.starts(with: [0xFF, 0xD8]) {
            return [0xFF, 0xD8] + segment(0xFE, note) + bytes.dropFirst(2)
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), bytes.count >= 33,
            bytes[12..<16].elementsEqual("IHDR".utf8)
        {
            return bytes[..<33] + pngChunk("tEXt", Array("Comment".utf8) + [0] + note) + bytes[33...]
        }
        if bytes.starts(with: Array("GIF8".utf8)), bytes.count > 13 {
            let flags = Int(bytes[10])
            let blocks = 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
            guard bytes.count > blocks else { return nil }
            // Extensions are GIF89a's; naming the version changes nothing a GIF87a shows.
            return Array("GIF89a".utf8) + bytes[6..<blocks] + [0x21, 0xFE, UInt8(note.count)] + note + [0]
                + bytes[blocks...]
        }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8)
        {
            var copy =
                bytes + Array("VBCP".utf8) + littleEndian(note.count) + note
                + (note.count % 2 == 1 ? [0] : [])
            copy.replaceSubrange(4..<8, with: littleEndian(copy.count - 8))
            return copy
        }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            return bytes + bigEndian(8 + note.count) + Array("free".utf8) + note
        }
        return nil
    }

    private static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker] + bigEndian(body.count + 2).suffix(2) + body
    }

    private static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(data.count) + typed + bigEndian(Int(CRC32.checksum(typed[...])))
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    private static func littleEndian(_ value: Int) -> [UInt8] {
        bigEndian(value).reversed()
    }
}
