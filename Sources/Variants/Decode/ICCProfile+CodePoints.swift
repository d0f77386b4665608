extension ICCProfile {
    /// The colour encoding an RGB or grey profile states in H.273 code points (primaries and transfer): its `cicp`
    /// tag (ICC 4.4), or else the description libjxl gives the profiles it synthesises from a JPEG XL
    /// codestream's colour encoding, which names it (`RGB_D65_202_Rel_PeQ`: colour space, white point,
    /// primaries, rendering intent, transfer). libjxl 0.7 writes no `cicp` tag, and a PQ or HLG curve sampled
    /// into a `curv` table does not say which curve it is. nil when the profile states neither.
    static func codePoints(tags: [String: ArraySlice<UInt8>]) -> HeifContainer.NCLX? {
        if let tag = tags["cicp"].map(Array.init), tag.count >= 12, fourCC(tag, 0) == "cicp" {
            let primaries = Int(tag[8])
            return HeifContainer.NCLX(
                primaries: primaries, transfer: Int(tag[9]),
                chromaticities: namedPrimaries[primaries].map { [0.3127, 0.3290] + $0 } ?? [])
        }
        return tags["desc"].flatMap(description).flatMap(libjxlEncoding)
    }

    /// Red, green and blue (x, y) of the H.273 primaries a JPEG XL colour encoding can name: BT.709/sRGB,
    /// BT.2020 and P3.
    private static let namedPrimaries: [Int: [Double]] = [
        1: [0.640, 0.330, 0.300, 0.600, 0.150, 0.060],
        9: [0.708, 0.292, 0.170, 0.797, 0.131, 0.046],
        12: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060],
    ]

    /// libjxl's names of the transfers, as H.273 codes.
    private static let libjxlTransfers: [String: Int] = [
        "709": 1, "Lin": 8, "SRG": 13, "PeQ": 16, "DCI": 17, "HLG": 18,
    ]

    /// The encoding a libjxl description names; nil for any other text.
    private static func libjxlEncoding(_ text: String) -> HeifContainer.NCLX? {
        var fields = text.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        // Grey names no primaries; its light is mapped as that of an sRGB grey.
        if fields.count == 4, fields[0] == "Gra" { fields.insert("SRG", at: 2) }
        guard fields.count == 5, ["RGB", "Gra"].contains(fields[0]), let transfer = libjxlTransfers[fields[4]]
        else { return nil }
        let white: [Double]
        switch fields[1] {
        case "D65": white = [0.3127, 0.3290]
        case "EER": white = [1.0 / 3, 1.0 / 3]
        case "DCI": white = [0.314, 0.351]
        default: white = numbers(fields[1], count: 2) ?? []
        }
        let primaries: Int
        switch fields[2] {
        case "SRG": primaries = 1
        case "202": primaries = 9
        case "DCI": primaries = 12
        default: primaries = 0
        }
        guard white.count == 2,
            let colours = namedPrimaries[primaries] ?? numbers(fields[2], count: 6)
        else { return nil }
        return HeifContainer.NCLX(primaries: primaries, transfer: transfer, chromaticities: white + colours)
    }

    /// `count` numbers separated by semicolons, as libjxl writes custom chromaticities.
    private static func numbers(_ text: String, count: Int) -> [Double]? {
        let values = text.split(separator: ";").compactMap { Double($0) }
        return values.count == count && values.allSatisfy({ $0.isFinite }) ? values : nil
    }

    /// The English text of a `desc` tag: an ICC 4 `mluc` (UTF-16) or ICC 2 `desc` (ASCII) record.
    private static func description(_ tag: ArraySlice<UInt8>) -> String? {
        let tag = Array(tag)
        guard tag.count >= 12 else { return nil }
        switch fourCC(tag, 0) {
        case "mluc":
            guard tag.count >= 28, u32(tag, 8) >= 1, u32(tag, 12) >= 12 else { return nil }
            let (length, offset) = (u32(tag, 20), u32(tag, 24))
            guard offset <= tag.count, length <= tag.count - offset, length <= 256 else { return nil }
            let units = stride(from: offset, to: offset + length - 1, by: 2).map { UInt16(u16(tag, $0)) }
            return String(decoding: units, as: UTF16.self)
        case "desc":
            let length = u32(tag, 8)
            guard length <= tag.count - 12, length <= 256 else { return nil }
            return String(decoding: tag[12..<12 + length].prefix { $0 != 0 }, as: UTF8.self)
        default:
            return nil
        }
    }
}
