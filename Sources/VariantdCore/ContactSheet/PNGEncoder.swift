import Variants

/// A minimal PNG encoder for small RGBA8 pictures (the decoded ThumbHash placeholders, at most 32 pixels a
/// side): no filtering, and the zlib stream is made of stored deflate blocks, so it needs no compressor.
/// An opaque picture is written without its alpha channel: a 32 × 32 placeholder is 3.2 kB, 4.2 kB with
/// transparency.
enum PNGEncoder {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most a stored deflate block holds.
    private static let blockLimit = 65_535

    /// Straight (not premultiplied) RGBA8 pixels, row by row, `width × height × 4` bytes.
    static func rgba(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        let opaque = stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
        let channels = opaque ? 3 : 4
        var header: [UInt8] = []
        append(UInt32(width), to: &header)
        append(UInt32(height), to: &header)
        // 8 bits per channel, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive filtering, not interlaced.
        header += [8, opaque ? 2 : 6, 0, 0, 0]

        var scanlines: [UInt8] = []
        scanlines.reserveCapacity(height * (width * channels + 1))
        for row in 0..<height {
            scanlines.append(0)  // filter type None
            for pixel in (row * width)..<((row + 1) * width) {
                scanlines += pixels[(pixel * 4)..<(pixel * 4 + channels)]
            }
        }
        var png = signature
        chunk("IHDR", header, to: &png)
        chunk("IDAT", zlibStored(scanlines), to: &png)
        chunk("IEND", [], to: &png)
        return png
    }

    /// A zlib stream of stored blocks: the header (deflate, 32 KiB window, no dictionary), the data in
    /// blocks of at most 65,535 bytes, and the Adler-32 of the data.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + blockLimit, data.count)
            let length = UInt16(end - start)
            stream.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<end]
            start = end
        } while start < data.count
        append(Adler32.checksum(data), to: &stream)
        return stream
    }

    private static func chunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        append(UInt32(data.count), to: &png)
        png += typed
        append(CRC32.checksum(typed[...]), to: &png)
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ]
    }
}
