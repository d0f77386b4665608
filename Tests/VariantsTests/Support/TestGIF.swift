/// An animated GIF made by a test: a four-colour global palette and frames of one colour each, placed on the
/// canvas, each with its own disposal and no transparent colour. Each frame's data is LZW-coded with a clear
/// code after every two pixels, so that every code stays 3 bits wide: long, but valid for every decoder.
struct TestGIF {
    /// What becomes of a frame's area before the next frame is drawn.
    enum Disposal: UInt8 {
        case keep = 1
        case background = 2
        case previous = 3
    }

    struct Frame {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
        /// The palette index every pixel of the frame takes.
        var colour: UInt8
        var disposal: Disposal
    }

    var width: Int
    var height: Int
    /// Four RGB colours.
    var palette: [[UInt8]]
    /// The palette index the header names as the background colour.
    var background: UInt8
    var frames: [Frame]

    var bytes: [UInt8] {
        var out = Array("GIF89a".utf8) + Self.le16(width) + Self.le16(height)
        // A global table of 2² colours (size field 1), 8 bits of colour resolution.
        out += [0xF1, background, 0] + palette.flatMap { $0 }
        for frame in frames {
            // Graphic control: the disposal, no transparent colour, 100 ms.
            out += [0x21, 0xF9, 4, frame.disposal.rawValue << 2] + Self.le16(10) + [0, 0]
            out += [0x2C] + Self.le16(frame.left) + Self.le16(frame.top)
            out += Self.le16(frame.width) + Self.le16(frame.height) + [0]
            let data = Self.lzw(Array(repeating: frame.colour, count: frame.width * frame.height))
            out.append(2)  // minimum code size: clear is 4, end is 5
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(start + 255, data.count)]
                out += [UInt8(block.count)] + block
            }
            out.append(0)
        }
        return out + [0x3B]
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }

    /// 3-bit codes, least significant bit first: clear, two pixels, clear, … end.
    private static func lzw(_ pixels: [UInt8]) -> [UInt8] {
        var codes: [UInt8] = []
        for (index, pixel) in pixels.enumerated() {
            if index % 2 == 0 { codes.append(4) }
            codes.append(pixel)
        }
        codes.append(5)
        var out: [UInt8] = []
        var bits = 0
        var count = 0
        for code in codes {
            bits |= Int(code) << count
            count += 3
            while count >= 8 {
                out.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { out.append(UInt8(bits)) }
        return out
    }
}
