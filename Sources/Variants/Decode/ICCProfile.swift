import Foundation

/// What the decode needs to know about an embedded ICC profile, read from its header and tag table: the
/// rendering intent it asks for, whether it converts through lookup tables, and whether it is plain sRGB.
///
/// Only facts are read here; the conversion itself is lcms' (through libvips), which also decides whether a
/// profile is usable on a picture's pixels (`usable(in:)`).
struct ICCProfile: Sendable, Equatable {
    /// ICC rendering intents, in the header's numbering (libvips uses the same).
    enum Intent: Int, Sendable {
        case perceptual = 0
        case relativeColorimetric, saturation, absoluteColorimetric
    }

    /// The intent the profile's creator chose; perceptual when the header names none we know.
    let intent: Intent
    /// Four-character colour space of the device side: `RGB `, `CMYK`, `GRAY`, …
    let colourSpace: String
    /// Converts through an `A2B0` lookup table (CMYK print profiles, XYB JPEGs): a non-linear mapping, so the
    /// pixels must be converted before they are resampled.
    let isLUTBased: Bool
    /// A matrix/TRC RGB profile whose primaries and curves are sRGB's: converting through it changes nothing
    /// but costs time, so it is skipped.
    let isSRGB: Bool
    /// The colour encoding the profile stands for in H.273 code points, when it states one
    /// (`codePoints(tags:)`): how an HDR JPEG XL says its samples are PQ or HLG.
    let codePoints: HeifContainer.NCLX?

    /// nil when the bytes are not an ICC profile at all (no `acsp` signature or a tag table past the end).
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 132, Self.fourCC(bytes, 36) == "acsp" else { return nil }
        let count = Self.u32(bytes, 128)
        guard count <= (bytes.count - 132) / 12 else { return nil }
        var tags: [String: ArraySlice<UInt8>] = [:]
        for index in 0..<count {
            let entry = 132 + index * 12
            let offset = Self.u32(bytes, entry + 4)
            let length = Self.u32(bytes, entry + 8)
            guard offset <= bytes.count, length <= bytes.count - offset else { return nil }
            tags[Self.fourCC(bytes, entry)] = bytes[offset..<offset + length]
        }
        intent = Intent(rawValue: Self.u32(bytes, 64)) ?? .perceptual
        colourSpace = Self.fourCC(bytes, 16)
        isLUTBased = tags["A2B0"] != nil
        let deviceClass = Self.fourCC(bytes, 12)
        isSRGB =
            !isLUTBased && colourSpace == "RGB " && ["mntr", "scnr", "spac"].contains(deviceClass)
            && zip(["rXYZ", "gXYZ", "bXYZ"], Self.sRGBColorants).allSatisfy { tag, expected in
                tags[tag].map { Self.xyz($0, near: expected) } ?? false
            }
            && ["rTRC", "gTRC", "bTRC"].allSatisfy { tags[$0].map(Self.isSRGBCurve) ?? false }
        codePoints = ["RGB ", "GRAY"].contains(colourSpace) ? Self.codePoints(tags: tags) : nil
    }

    /// sRGB's red, green and blue colorants adapted to the D50 connection space, as profiles store them.
    private static let sRGBColorants: [(Double, Double, Double)] = [
        (0.4361, 0.2225, 0.0139), (0.3851, 0.7169, 0.0971), (0.1431, 0.0606, 0.7141),
    ]

    private static func xyz(_ tag: ArraySlice<UInt8>, near expected: (Double, Double, Double)) -> Bool {
        let tag = Array(tag)
        guard tag.count >= 20, fourCC(tag, 0) == "XYZ " else { return false }
        let values = [8, 12, 16].map { Double(Int32(bitPattern: UInt32(u32(tag, $0)))) / 65536 }
        return abs(values[0] - expected.0) < 0.003 && abs(values[1] - expected.1) < 0.003
            && abs(values[2] - expected.2) < 0.003
    }

    /// Whether a tone curve (`curv` table or `para` function) decodes like sRGB's to within half a level.
    private static func isSRGBCurve(_ tag: ArraySlice<UInt8>) -> Bool {
        let tag = Array(tag)
        guard tag.count >= 12 else { return false }
        let linear: (Double) -> Double
        switch fourCC(tag, 0) {
        case "curv":
            let entries = u32(tag, 8)
            guard entries >= 2, tag.count >= 12 + entries * 2 else { return false }
            linear = { x in
                let position = x * Double(entries - 1)
                let index = min(entries - 2, Int(position))
                let low = Double(u16(tag, 12 + index * 2)) / 65535
                let high = Double(u16(tag, 14 + index * 2)) / 65535
                return low + (high - low) * (position - Double(index))
            }
        case "para":
            guard u16(tag, 8) == 3, tag.count >= 32 else { return false }
            let p = (0..<5).map { Double(Int32(bitPattern: UInt32(u32(tag, 12 + $0 * 4)))) / 65536 }
            linear = { x in x >= p[4] ? pow(p[1] * x + p[2], p[0]) : p[3] * x }
        default:
            return false
        }
        return (0...64).allSatisfy { step in
            let x = Double(step) / 64
            let expected = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
            return abs(encoded(linear(x)) - encoded(expected)) * 255 <= 0.5
        }
    }

    private static func encoded(_ linear: Double) -> Double {
        let value = max(0, min(1, linear))
        return value <= 0.0031308 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
    }

    static func u16(_ bytes: [UInt8], _ index: Int) -> Int {
        Int(bytes[index]) << 8 | Int(bytes[index + 1])
    }
    static func u32(_ bytes: [UInt8], _ index: Int) -> Int {
        u16(bytes, index) << 16 | u16(bytes, index + 2)
    }
    static func fourCC(_ bytes: [UInt8], _ index: Int) -> String {
        String(decoding: bytes[index..<index + 4], as: UTF8.self)
    }
}
