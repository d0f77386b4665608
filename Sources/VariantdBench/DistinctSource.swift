/// The n-th copy of a picture that differs from every other copy in its bytes and in nothing it shows: the
/// daemon keys renditions by the source's SHA-256, so a timed request for a copy finds nothing stored and
/// does the whole job, as a new upload does.
enum DistinctSource {
    /// A JPEG gets a comment segment after its start marker; an ISO-BMFF file (HEIC, AVIF) a `free` box at
    /// its end. nil for other formats.
    static func copy(_ bytes: [UInt8], number: Int) -> [UInt8]? {
        let tag = Array("variantd bench copy \(number)".utf8)
        if bytes.starts(with: [0xFF, 0xD8]) {
            let length = tag.count + 2
            return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + tag
                + bytes.dropFirst(2)
        }
        if bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) {
            let size = 8 + tag.count
            return bytes + [0, 0, UInt8(size >> 8), UInt8(size & 0xFF)] + Array("free".utf8) + tag
        }
        return nil
    }
}
