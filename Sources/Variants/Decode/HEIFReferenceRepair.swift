/// A HEIF container whose item references list one item twice — an `iovl` overlay placing the same tile at
/// two offsets, as in Nokia's conformance file C021 — is valid ISO/IEC 23008-12, but libheif 1.19 refuses the
/// whole file ("'iref' has double references"). When the displayed item is a coded image, its pixels do not
/// depend on any reference, so a copy of the file decodes the same picture when its `iref` box is turned into
/// a `free` box of the same size and the derived items that lost their references are given a type libheif
/// skips (every offset stays put).
enum HEIFReferenceRepair {
    /// The repaired copy, or nil when the file has no repeated reference or its primary item is derived
    /// (a grid, overlay or identity item needs its references).
    static func repaired(_ bytes: [UInt8]) -> [UInt8]? {
        guard let meta = box("meta", in: bytes, from: 0, to: bytes.count).map({ ($0.body + 4, $0.end) }),
            let iref = box("iref", in: bytes, from: meta.0, to: meta.1),
            let pitm = box("pitm", in: bytes, from: meta.0, to: meta.1), pitm.body + 6 <= pitm.end,
            let iinf = box("iinf", in: bytes, from: meta.0, to: meta.1),
            hasRepeatedReference(bytes, iref)
        else { return nil }
        let primary = bytes[pitm.body] == 0 ? u16(bytes, pitm.body + 4) : u32(bytes, pitm.body + 4)
        let items = itemTypes(in: bytes, iinf)
        guard let type = items.first(where: { $0.id == primary })?.type, ["hvc1", "av01"].contains(type)
        else {
            return nil
        }
        var copy = bytes
        copy.replaceSubrange(iref.body - 4..<iref.body, with: Array("free".utf8))
        for item in items where ["iovl", "grid", "iden"].contains(item.type) {
            copy.replaceSubrange(item.typeOffset..<item.typeOffset + 4, with: Array("free".utf8))
        }
        return copy
    }

    private struct Box {
        var body: Int
        var end: Int
    }

    /// The first box of `type` among the boxes in `start..<end`.
    private static func box(_ type: String, in bytes: [UInt8], from start: Int, to end: Int) -> Box? {
        var offset = start
        while offset + 8 <= end {
            var size = u32(bytes, offset)
            var header = 8
            if size == 1, offset + 16 <= end {
                size = u32(bytes, offset + 8) << 32 | u32(bytes, offset + 12)
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= header, size <= end - offset else { return nil }
            if bytes[offset + 4..<offset + 8].elementsEqual(type.utf8) {
                return Box(body: offset + header, end: offset + size)
            }
            offset += size
        }
        return nil
    }

    /// Whether any reference in `iref` names the same item twice.
    private static func hasRepeatedReference(_ bytes: [UInt8], _ iref: Box) -> Bool {
        guard iref.body + 4 <= iref.end else { return false }
        let wide = bytes[iref.body] != 0
        let idSize = wide ? 4 : 2
        var offset = iref.body + 4
        while offset + 8 + 2 * idSize <= iref.end {
            let size = u32(bytes, offset)
            guard size >= 8 + 2 * idSize, size <= iref.end - offset else { return false }
            let count = u16(bytes, offset + 8 + idSize)
            let first = offset + 10 + idSize
            guard first + count * idSize <= offset + size else { return false }
            let ids = (0..<count).map { wide ? u32(bytes, first + $0 * 4) : u16(bytes, first + $0 * 2) }
            if Set(ids).count < ids.count { return true }
            offset += size
        }
        return false
    }

    /// Every item `iinf` lists (version 2 or 3 `infe` entries): its id, type and where the type is stored.
    private static func itemTypes(in bytes: [UInt8], _ iinf: Box) -> [(
        id: Int, type: String, typeOffset: Int
    )] {
        guard iinf.body + 6 <= iinf.end else { return [] }
        var items: [(id: Int, type: String, typeOffset: Int)] = []
        var offset = iinf.body + (bytes[iinf.body] == 0 ? 6 : 8)
        while let infe = box("infe", in: bytes, from: offset, to: iinf.end) {
            let version = bytes[infe.body]
            let idSize = version >= 3 ? 4 : 2
            let typeAt = infe.body + 4 + idSize + 2
            if version >= 2, typeAt + 4 <= infe.end {
                let id = idSize == 4 ? u32(bytes, infe.body + 4) : u16(bytes, infe.body + 4)
                items.append((id, String(decoding: bytes[typeAt..<typeAt + 4], as: UTF8.self), typeAt))
            }
            offset = infe.end
        }
        return items
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) << 16 | u16(bytes, at + 2) }
}
