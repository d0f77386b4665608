/// A little-endian, uncompressed RGB TIFF written by hand: a gradient (red rising left to right, green top to
/// bottom, blue at half), 8 or 16 bits a sample, in one strip or in 16 × 16 tiles, repeated as `pages`
/// directories; its declared size may lie.
struct TestTIFF {
    var width: Int
    var height: Int
    var bitsPerSample: Int
    var tiled: Bool
    var pages = 1
    /// What the directories declare, when not the true size.
    var declaredWidth: Int?
    var declaredHeight: Int?

    static func gradient(width: Int, height: Int, bitsPerSample: Int, tiled: Bool) -> TestTIFF {
        TestTIFF(width: width, height: height, bitsPerSample: bitsPerSample, tiled: tiled)
    }

    private static let tile = 16

    /// The sample at (x, y) of `band`, at full scale for the bit depth.
    private func sample(_ x: Int, _ y: Int, _ band: Int) -> Int {
        let top = (1 << bitsPerSample) - 1
        switch band {
        case 0: return top * x / max(1, width - 1)
        case 1: return top * y / max(1, height - 1)
        default: return (top + 1) / 2
        }
    }

    /// The pixels of the rectangle, row after row, each sample little-endian.
    private func pixels(left: Int, top: Int, width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in top..<top + height {
            for x in left..<left + width {
                for band in 0..<3 {
                    let value = x < self.width && y < self.height ? sample(x, y, band) : 0
                    out.append(UInt8(value & 0xFF))
                    if bitsPerSample == 16 { out.append(UInt8(value >> 8)) }
                }
            }
        }
        return out
    }

    var bytes: [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 0, 0, 0, 0]
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }
        // The pixel blocks, once, shared by every page.
        var offsets: [Int] = []
        var counts: [Int] = []
        let blocks: [(Int, Int, Int, Int)] =
            tiled
            ? stride(from: 0, to: height, by: Self.tile).flatMap { top in
                stride(from: 0, to: width, by: Self.tile).map { ($0, top, Self.tile, Self.tile) }
            } : [(0, 0, width, height)]
        for (left, top, blockWidth, blockHeight) in blocks {
            let data = pixels(left: left, top: top, width: blockWidth, height: blockHeight)
            offsets.append(out.count)
            counts.append(data.count)
            out += data
        }
        let offsetArray = out.count
        out += offsets.flatMap(le32)
        let countArray = out.count
        out += counts.flatMap(le32)
        let bitsArray = out.count
        out += [bitsPerSample, bitsPerSample, bitsPerSample].flatMap(le16)
        // Tag, type (3 SHORT, 4 LONG), count, value or offset.
        var entries: [(Int, Int, Int, Int)] = [
            (256, 4, 1, declaredWidth ?? width), (257, 4, 1, declaredHeight ?? height),
            (258, 3, 3, bitsArray),
            (259, 3, 1, 1), (262, 3, 1, 2), (277, 3, 1, 3), (284, 3, 1, 1),
        ]
        let single = offsets.count == 1
        if tiled {
            entries += [
                (322, 4, 1, Self.tile), (323, 4, 1, Self.tile),
                (324, 4, offsets.count, single ? offsets[0] : offsetArray),
                (325, 4, counts.count, single ? counts[0] : countArray),
            ]
        } else {
            entries += [(273, 4, 1, offsets[0]), (278, 4, 1, height), (279, 4, 1, counts[0])]
        }
        entries.sort { $0.0 < $1.0 }
        var directory = out.count
        out.replaceSubrange(4..<8, with: le32(directory))
        for page in 0..<pages {
            let next = page + 1 < pages ? directory + 2 + entries.count * 12 + 4 : 0
            out += le16(entries.count)
            for (tag, type, count, value) in entries {
                out += le16(tag) + le16(type) + le32(count)
                out += type == 3 && count == 1 ? le16(value) + [0, 0] : le32(value)
            }
            out += le32(next)
            directory = next
        }
        return out
    }
}
