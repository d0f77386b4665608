@testable import Variants

/// A PNG of one RGBA colour, written byte by byte (deflate's stored blocks, no compression), so a test has
/// a picture whose every pixel it knows without any encoder under test.
enum SolidPNG {
    static func make(width: Int, height: Int, rgba: [UInt8]) -> [UInt8] {
        precondition(rgba.count == 4)
        let row = [0] + Array([[UInt8]](repeating: rgba, count: width).joined())
        let raw = Array([[UInt8]](repeating: row, count: height).joined())
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final] + le16(count) + le16(~count & 0xFFFF) + raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += be32(b << 16 | a)
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body[...]))
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    private static func be32(_ value: UInt32) -> [UInt8] {
        (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) }
    }
}
