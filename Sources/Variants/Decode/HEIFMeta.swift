/// The item structure of a HEIF file's `meta` box, read here without libheif: for the files libheif 1.19
/// refuses or misreads (an item referenced twice, an overlay tile at a negative offset), which are valid
/// ISO/IEC 23008-12. Every read is bounds-checked; what does not parse is absent, never a crash.
struct HEIFMeta {
    struct Box {
        /// Where the box's contents start (after its size and type).
        var body: Int
        var end: Int
    }

    struct Item {
        var id: Int
        var type: String
        /// Where the type's four characters are stored in the file.
        var typeOffset: Int
        /// Where the last byte of the `infe` flags is, whose lowest bit hides the item.
        var flagsOffset: Int
    }

    /// One `iref` entry: `from` refers to each of `to`, in order, a repeated item repeated.
    struct Reference {
        var type: String
        var from: Int
        var to: [Int]
    }

    let bytes: [UInt8]
    let primary: Int
    let items: [Item]
    let references: [Reference]
    private let meta: Box
    private let pitm: Box
    private let iref: Box?

    /// nil without a `meta` box holding `pitm` and `iinf`.
    init?(_ bytes: [UInt8]) {
        guard let outer = Self.box("meta", in: bytes, from: 0, to: bytes.count), outer.body + 4 <= outer.end
        else { return nil }
        let meta = Box(body: outer.body + 4, end: outer.end)
        guard let pitm = Self.box("pitm", in: bytes, from: meta.body, to: meta.end),
            pitm.body + 6 <= pitm.end,
            let iinf = Self.box("iinf", in: bytes, from: meta.body, to: meta.end)
        else { return nil }
        let wide = bytes[pitm.body] != 0
        guard !wide || pitm.body + 8 <= pitm.end else { return nil }
        self.bytes = bytes
        self.meta = meta
        self.pitm = pitm
        primary = wide ? Self.u32(bytes, pitm.body + 4) : Self.u16(bytes, pitm.body + 4)
        items = Self.items(in: bytes, iinf)
        iref = Self.box("iref", in: bytes, from: meta.body, to: meta.end)
        references = iref.map { Self.references(in: bytes, $0) } ?? []
    }

    var primaryType: String? { items.first { $0.id == primary }?.type }

    /// Whether any reference names the same item twice (which libheif 1.19 refuses).
    var hasRepeatedReference: Bool { references.contains { Set($0.to).count < $0.to.count } }

    /// A copy without item references for libheif: `iref` becomes a `free` box of the same size, derived
    /// items (which lost their references) a type libheif skips, and, given `shown`, `pitm` names that item.
    /// The `unhidden` items lose their hidden flag (libheif opens no hidden image). Every offset stays put.
    /// nil when `shown` does not fit the `pitm` field.
    func withoutReferences(showing shown: Int? = nil, unhiding unhidden: Set<Int> = []) -> [UInt8]? {
        var copy = bytes
        if let iref { copy.replaceSubrange(iref.body - 4..<iref.body, with: Array("free".utf8)) }
        for item in items where ["iovl", "grid", "iden"].contains(item.type) {
            copy.replaceSubrange(item.typeOffset..<item.typeOffset + 4, with: Array("free".utf8))
        }
        for item in items where unhidden.contains(item.id) { copy[item.flagsOffset] &= 0xFE }
        if let shown {
            let wide = bytes[pitm.body] != 0
            guard wide || shown <= 0xFFFF else { return nil }
            let field = (wide ? [24, 16, 8, 0] : [8, 0]).map { UInt8(truncatingIfNeeded: shown >> $0) }
            copy.replaceSubrange(pitm.body + 4..<pitm.body + 4 + field.count, with: field)
        }
        return copy
    }

    /// An item's data as `iloc` places it, in the file or in `idat`; nil when it cannot be read.
    func data(of item: Int) -> [UInt8]? {
        guard let iloc = Self.box("iloc", in: bytes, from: meta.body, to: meta.end), iloc.body + 8 <= iloc.end
        else { return nil }
        var reader = Reader(bytes: bytes, offset: iloc.body, end: iloc.end)
        guard let version = reader.int(1), version <= 2, reader.skip(3), let sizes = reader.int(1),
            let moreSizes = reader.int(1), let count = reader.int(version < 2 ? 2 : 4)
        else { return nil }
        let (offsetSize, lengthSize, baseSize) = (sizes >> 4, sizes & 15, moreSizes >> 4)
        let indexSize = version >= 1 ? moreSizes & 15 : 0
        for _ in 0..<count {
            guard let id = reader.int(version < 2 ? 2 : 4) else { return nil }
            var method = 0
            if version >= 1 {
                guard let field = reader.int(2) else { return nil }
                method = field & 15
            }
            guard reader.skip(2), let base = reader.int(baseSize), let extents = reader.int(2) else {
                return nil
            }
            var data: [UInt8] = []
            for _ in 0..<extents {
                guard reader.skip(indexSize), let offset = reader.int(offsetSize),
                    let length = reader.int(lengthSize)
                else { return nil }
                guard id == item else { continue }
                let start: Int
                let limit: Int
                switch method {
                case 0: (start, limit) = (base + offset, bytes.count)
                case 1:
                    guard let idat = Self.box("idat", in: bytes, from: meta.body, to: meta.end) else {
                        return nil
                    }
                    (start, limit) = (idat.body + base + offset, idat.end)
                default: return nil
                }
                let end = length == 0 ? limit : start + length
                guard start >= 0, start <= end, end <= limit else { return nil }
                data += bytes[start..<end]
            }
            if id == item { return data }
        }
        return nil
    }

    /// One property box of `ipco`: its type and what follows its header.
    struct Property {
        var type: String
        var contents: ArraySlice<UInt8>
    }

    /// The properties `ipma` associates with an item, in order.
    func properties(of item: Int) -> [Property] {
        guard let iprp = Self.box("iprp", in: bytes, from: meta.body, to: meta.end),
            let ipco = Self.box("ipco", in: bytes, from: iprp.body, to: iprp.end),
            let ipma = Self.box("ipma", in: bytes, from: iprp.body, to: iprp.end)
        else { return [] }
        var properties: [Property] = []
        var offset = ipco.body
        while let box = Self.box(nil, in: bytes, from: offset, to: ipco.end) {
            properties.append(
                Property(
                    type: String(decoding: bytes[box.body - 4..<box.body], as: UTF8.self),
                    contents: bytes[box.body..<box.end]))
            offset = box.end
        }
        var reader = Reader(bytes: bytes, offset: ipma.body, end: ipma.end)
        guard let version = reader.int(1), let flags = reader.int(3), let count = reader.int(4) else {
            return []
        }
        for _ in 0..<count {
            guard let id = reader.int(version < 1 ? 2 : 4), let associations = reader.int(1) else {
                return []
            }
            var indexes: [Int] = []
            for _ in 0..<associations {
                guard let field = reader.int(flags & 1 == 1 ? 2 : 1) else { return [] }
                indexes.append(field & (flags & 1 == 1 ? 0x7FFF : 0x7F))
            }
            if id == item {
                return indexes.compactMap { $0 >= 1 && $0 <= properties.count ? properties[$0 - 1] : nil }
            }
        }
        return []
    }

    // MARK: - Reading

    /// Big-endian fields of 0 to 8 bytes, in order, none past `end`.
    struct Reader {
        let bytes: [UInt8]
        var offset: Int
        let end: Int

        mutating func int(_ size: Int) -> Int? {
            guard size >= 0, size <= 8, offset + size <= end else { return nil }
            let value = bytes[offset..<offset + size].reduce(0) { $0 << 8 | Int($1) }
            offset += size
            return value
        }

        mutating func skip(_ size: Int) -> Bool {
            guard size >= 0, offset + size <= end else { return false }
            offset += size
            return true
        }
    }

    /// The first box of `type` (any box, given nil) among the boxes in `start..<end`.
    static func box(_ type: String?, in bytes: [UInt8], from start: Int, to end: Int) -> Box? {
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
            if type.map({ bytes[offset + 4..<offset + 8].elementsEqual($0.utf8) }) ?? true {
                return Box(body: offset + header, end: offset + size)
            }
            offset += size
        }
        return nil
    }

    /// Every reference in `iref`, version 0 (16-bit item ids) or 1 (32-bit).
    private static func references(in bytes: [UInt8], _ iref: Box) -> [Reference] {
        guard iref.body + 4 <= iref.end else { return [] }
        let idSize = bytes[iref.body] != 0 ? 4 : 2
        var references: [Reference] = []
        var offset = iref.body + 4
        while let entry = box(nil, in: bytes, from: offset, to: iref.end) {
            var reader = Reader(bytes: bytes, offset: entry.body, end: entry.end)
            guard let from = reader.int(idSize), let count = reader.int(2) else { break }
            let to = (0..<count).compactMap { _ in reader.int(idSize) }
            guard to.count == count else { break }
            references.append(
                Reference(
                    type: String(decoding: bytes[entry.body - 4..<entry.body], as: UTF8.self), from: from,
                    to: to))
            offset = entry.end
        }
        return references
    }

    /// Every item `iinf` lists (version 2 or 3 `infe` entries): its id, type and where the type is stored.
    private static func items(in bytes: [UInt8], _ iinf: Box) -> [Item] {
        guard iinf.body + 6 <= iinf.end else { return [] }
        var items: [Item] = []
        var offset = iinf.body + (bytes[iinf.body] == 0 ? 6 : 8)
        while let infe = box("infe", in: bytes, from: offset, to: iinf.end) {
            let version = bytes[infe.body]
            let idSize = version >= 3 ? 4 : 2
            let typeAt = infe.body + 4 + idSize + 2
            if version >= 2, typeAt + 4 <= infe.end {
                let id = idSize == 4 ? u32(bytes, infe.body + 4) : u16(bytes, infe.body + 4)
                items.append(
                    Item(
                        id: id, type: String(decoding: bytes[typeAt..<typeAt + 4], as: UTF8.self),
                        typeOffset: typeAt,
                        flagsOffset: infe.body + 3))
            }
            offset = infe.end
        }
        return items
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    static func u32(_ bytes: [UInt8], _ at: Int) -> Int { u16(bytes, at) << 16 | u16(bytes, at + 2) }
}
