/// The two EXIF tags kept, read from and written as a TIFF-structured block (IFD0 only).
extension RightsMetadata {
    static let artistTag: UInt16 = 0x013B
    static let copyrightTag: UInt16 = 0x8298

    /// The `Artist` and `Copyright` values of IFD0, by tag: ASCII (or byte) values of at most
    /// `maximumValueBytes`, trailing NULs removed, empty ones left out. Anything malformed reads as nothing;
    /// every offset is checked against the block, so a hostile block cannot read past it.
    static func exifStrings(_ block: [UInt8]) -> [UInt16: [UInt8]] {
        var tiff = block[...]
        if tiff.starts(with: Array("Exif\0\0".utf8)) { tiff = tiff.dropFirst(6) }
        let bytes = Array(tiff)
        guard bytes.count >= 8 else { return [:] }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return [:]
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return little ? first | second << 16 : first << 16 | second
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return [:] }
        var found: [UInt16: [UInt8]] = [:]
        for index in 0..<count {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let length = u32(entry + 4) else { break }
            let wanted = [artistTag, copyrightTag].contains(UInt16(tag))
            // ASCII (2), or BYTE (1) and UNDEFINED (7), which some writers use for UTF-8.
            guard wanted, [1, 2, 7].contains(type), (1...maximumValueBytes + 1).contains(length) else {
                continue
            }
            guard let start = length <= 4 ? entry + 8 : u32(entry + 8), start + length <= bytes.count else {
                continue
            }
            var value = Array(bytes[start..<start + length])
            while value.last == 0 { value.removeLast() }
            if !value.isEmpty, value.count <= maximumValueBytes { found[UInt16(tag)] = value }
        }
        return found
    }

    /// A little-endian TIFF block whose IFD0 holds `Artist` and `Copyright` (those there), nothing else;
    /// nil when neither is.
    var exifBlock: [UInt8]? {
        let values = [(Self.artistTag, artist), (Self.copyrightTag, copyright)].compactMap { tag, value in
            value.map { (tag: tag, bytes: $0 + [0]) }
        }
        guard !values.isEmpty else { return nil }
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16) }
        var block: [UInt8] = Array("II".utf8) + u16(42) + u32(8)
        // IFD0: its entries, the offset of the next IFD (none), then the values too long to sit inline.
        var data = 8 + 2 + values.count * 12 + 4
        var trailing: [UInt8] = []
        block += u16(values.count)
        for value in values {
            block += u16(Int(value.tag)) + u16(2) + u32(value.bytes.count)
            if value.bytes.count <= 4 {
                block += value.bytes + [UInt8](repeating: 0, count: 4 - value.bytes.count)
            } else {
                block += u32(data)
                // Values start on even offsets, as TIFF asks.
                let padded = value.bytes + (value.bytes.count % 2 == 1 ? [0] : [])
                trailing += padded
                data += padded.count
            }
        }
        return block + u32(0) + trailing
    }
}
