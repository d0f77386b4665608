/// Structural facts read from the container bytes themselves, so that an unreadable picture's reason comes
/// from which check failed, never from a C library's message text.
enum ContainerCheck {
    /// Whether the container ends before the data it declares.
    static func isTruncated(_ bytes: [UInt8], as type: MediaType) -> Bool {
        switch type.facts.container {
        case .jpegSegments: JPEGStructure(bytes).truncated
        case .pngChunks: pngIsTruncated(bytes)
        case .gifBlocks: gifIsTruncated(bytes)
        case .riffChunks: riffIsTruncated(bytes)
        case .isoBoxes: isoMediaIsTruncated(bytes)
        case .ebmlElements: ebmlIsTruncated(bytes)
        case nil: false
        }
    }

    /// Whether a critical PNG chunk (`IHDR`, `PLTE`, `IDAT`, `IEND`: an upper-case first letter) carries a
    /// CRC that does not match its type and data. Ancillary chunks are left to the decoder, which skips them;
    /// other containers carry no checksum of their own.
    static func hasBadChecksum(_ bytes: [UInt8], as type: MediaType) -> Bool {
        guard type.facts.container == .pngChunks else { return false }
        var offset = 8
        while offset + 12 <= bytes.count {
            let end = offset + 8 + u32(bytes, offset)
            guard end + 4 <= bytes.count else { return false }
            if bytes[offset + 4] & 0x20 == 0,
                CRC32.checksum(bytes[offset + 4..<end]) != UInt32(truncatingIfNeeded: u32(bytes, end))
            {
                return true
            }
            if bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8) { return false }
            offset = end + 4
        }
        return false
    }

    /// Bytes of metadata blocks the container declares: JPEG APPn and COM segments, PNG text, ICC and EXIF
    /// chunks, WebP EXIF, XMP and ICC chunks. (libheif bounds HEIF's through its security limits.)
    static func metadataBytes(_ bytes: [UInt8], as type: MediaType) -> Int {
        switch type.facts.container {
        case .jpegSegments: JPEGStructure(bytes).metadataBytes
        case .pngChunks:
            chunkBytes(bytes, from: 8, bigEndian: true, named: ["tEXt", "zTXt", "iTXt", "iCCP", "eXIf"])
        case .riffChunks: chunkBytes(bytes, from: 12, bigEndian: false, named: ["EXIF", "XMP ", "ICCP"])
        case .gifBlocks, .isoBoxes, .ebmlElements, nil: 0
        }
    }

    /// The declared sizes of the named chunks in a PNG (length, type, data, CRC) or RIFF (type, length, data,
    /// padding) chunk list.
    private static func chunkBytes(
        _ bytes: [UInt8], from start: Int, bigEndian: Bool, named names: Set<String>
    )
        -> Int
    {
        var total = 0
        var offset = start
        while offset + 8 <= bytes.count {
            let (typeAt, lengthAt) = bigEndian ? (offset + 4, offset) : (offset, offset + 4)
            let length =
                bigEndian
                ? u32(bytes, lengthAt) : (0..<4).reversed().reduce(0) { $0 << 8 | Int(bytes[lengthAt + $1]) }
            if names.contains(String(decoding: bytes[typeAt..<typeAt + 4], as: UTF8.self)) { total += length }
            offset += 8 + length + (bigEndian ? 4 : length & 1)
        }
        return total
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) << 16 | u16(bytes, at + 2) }

    /// Chunks must add up to an IEND chunk inside the file.
    private static func pngIsTruncated(_ bytes: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= bytes.count {
            let next = offset + 12 + u32(bytes, offset)
            if bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8) { return false }
            if next > bytes.count { return true }
            offset = next
        }
        return true
    }

    /// Blocks must lead to the trailer byte; an unknown block is corruption, not truncation.
    private static func gifIsTruncated(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 13 else { return true }
        var offset = 13
        if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 0x07) + 1) }
        func skipSubBlocks() -> Bool {
            while offset < bytes.count {
                let length = Int(bytes[offset])
                offset += 1 + length
                if length == 0 { return offset <= bytes.count }
            }
            return false
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3B:
                return false
            case 0x21:
                offset += 2
                guard skipSubBlocks() else { return true }
            case 0x2C:
                guard offset + 10 <= bytes.count else { return true }
                let flags = bytes[offset + 9]
                offset += 10
                if flags & 0x80 != 0 { offset += 3 << (Int(flags & 0x07) + 1) }
                offset += 1
                guard skipSubBlocks() else { return true }
            default:
                return false
            }
        }
        return true
    }

    /// The RIFF header's size must fit in the file.
    private static func riffIsTruncated(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12 else { return true }
        let size = (4..<8).reversed().reduce(0) { $0 << 8 | Int(bytes[$1]) }
        return 8 + size > bytes.count
    }

    /// The EBML header and the `Segment` after it must fit in the file, unless the segment's size is unknown
    /// (a live recording's).
    private static func ebmlIsTruncated(_ bytes: [UInt8]) -> Bool {
        guard let header = ebmlSize(bytes, at: 4), header.end + header.size <= bytes.count else {
            return true
        }
        let segment = header.end + header.size
        guard segment + 4 <= bytes.count, let size = ebmlSize(bytes, at: segment + 4) else { return true }
        return !size.unknown && size.size > bytes.count - size.end
    }

    /// An EBML variable-length size: its value, where it ends, and whether it is the reserved "unknown".
    private static func ebmlSize(_ bytes: [UInt8], at offset: Int) -> (
        size: Int, end: Int, unknown: Bool
    )? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let length = bytes[offset].leadingZeroBitCount + 1
        guard offset + length <= bytes.count else { return nil }
        let first = Int(bytes[offset]) & (0xFF >> length)
        let value = bytes[(offset + 1)..<(offset + length)].reduce(first) { $0 << 8 | Int($1) }
        return (value, offset + length, value == (1 << (7 * length)) - 1)
    }

    /// Every top-level box must fit in the file (libheif would otherwise decode a lone intact item).
    private static func isoMediaIsTruncated(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = u32(bytes, offset)
            if size == 0 { return false }
            if size == 1 {
                guard offset + 16 <= bytes.count else { return true }
                size = u32(bytes, offset + 8) << 32 | u32(bytes, offset + 12)
            }
            guard size >= 8 else { return false }
            if size > bytes.count - offset { return true }
            offset += size
        }
        return offset != bytes.count
    }
}

/// A walk over a JPEG's marker segments: whether it reaches EOI, and what its frame header declares.
struct JPEGStructure {
    private(set) var truncated = true
    /// Bytes in APPn and COM segments (EXIF, XMP, ICC, comments, maker data).
    private(set) var metadataBytes = 0
    /// The start-of-frame marker (0xC0 baseline, 0xC2 progressive, 0xC3 lossless, …) and sample precision.
    private(set) var frameMarker: UInt8?
    private(set) var precision: Int?
    /// The frame's declared width and height.
    private(set) var frameSize: (width: Int, height: Int)?
    /// The widest or tallest frame libjpeg-turbo decodes (`JPEG_MAX_DIMENSION`); the format allows 65,535.
    static let largestSide = 65_500

    init(_ bytes: [UInt8]) {
        var offset = 2
        while offset < bytes.count {
            guard bytes[offset] == 0xFF else {
                offset += 1
                continue
            }
            guard offset + 1 < bytes.count else { return }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xD9:
                truncated = false
                return
            case 0xFF, 0x00, 0x01, 0xD0...0xD7:
                offset += marker == 0xFF ? 1 : 2
                continue
            default:
                break
            }
            guard offset + 4 <= bytes.count else { return }
            let end = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            guard end <= bytes.count else { return }
            if (0xE0...0xEF).contains(marker) || marker == 0xFE { metadataBytes += end - offset }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), frameMarker == nil,
                offset + 9 <= end
            {
                frameMarker = marker
                precision = Int(bytes[offset + 4])
                frameSize = (
                    Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8]),
                    Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                )
            }
            offset = end
            if marker == 0xDA { offset = Self.endOfEntropyData(bytes, from: offset) }
        }
    }

    /// A frame coded in a way libjpeg-turbo here does not decode, in words; nil when it does.
    var unsupportedFeature: String? {
        if let precision, precision != 8 { return "\(precision)-bit JPEG" }
        switch frameMarker {
        case 0xC3, 0xCB: return "lossless JPEG"
        case 0xC5, 0xC6, 0xC7, 0xCD, 0xCE, 0xCF: return "hierarchical JPEG"
        default: return nil
        }
    }

    /// Entropy-coded data ends at the first marker that is neither a stuffed 0xFF00 nor a restart marker.
    private static func endOfEntropyData(_ bytes: [UInt8], from start: Int) -> Int {
        var offset = start
        while let found = ByteSearch.firstIndex(of: 0xFF, in: bytes, from: offset), found + 1 < bytes.count {
            let next = bytes[found + 1]
            if next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) { return found }
            offset = found + 1
        }
        return bytes.count
    }
}
