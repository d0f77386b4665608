extension SynthesizedProfile {
    /// The colour a PNG describes with `gAMA` (and `cHRM`, for colour pixels) instead of a profile, as browsers
    /// read it: nil when an `iCCP` or `sRGB` chunk takes precedence, when there is no `gAMA`, or when the
    /// description is sRGB (a gamma of 1/2.2 with sRGB's primaries is taken as sRGB, as libpng does).
    init?(png bytes: [UInt8], grey: Bool) {
        var gamma: Double?
        var chromaticities: [Double]?
        var offset = 8
        chunks: while offset + 12 <= bytes.count {
            let length = Self.u32(bytes, offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard length <= bytes.count - body else { break }
            switch type {
            case "iCCP", "sRGB":
                return nil
            case "IDAT":
                break chunks
            case "gAMA" where length == 4 && Self.u32(bytes, body) > 0:
                gamma = 100_000 / Double(Self.u32(bytes, body))
            case "cHRM" where length == 32:
                chromaticities = (0..<8).map { Double(Self.u32(bytes, body + $0 * 4)) / 100_000 }
            default:
                break
            }
            offset = body + length + 4
        }
        guard let gamma, gamma.isFinite, (0.2...5).contains(gamma) else { return nil }
        let (sRGBRed, sRGBGreen, sRGBBlue) = Self.sRGBPrimaries
        var points = [Self.d65, sRGBRed, sRGBGreen, sRGBBlue]
        if let chromaticities, stride(from: 1, to: 8, by: 2).allSatisfy({ chromaticities[$0] > 0.01 }) {
            points = stride(from: 0, to: 8, by: 2).map {
                Chromaticity(x: chromaticities[$0], y: chromaticities[$0 + 1])
            }
        }
        self.init(
            white: points[0], red: points[1], green: points[2], blue: points[3], curve: .gamma(gamma),
            isGrey: grey)
        if Self(white: white, red: red, green: green, blue: blue, curve: .sRGB, isGrey: grey).isSRGB,
            abs(gamma - 2.2) < 0.02
        {
            return nil
        }
    }

    private static func u32(_ bytes: [UInt8], _ at: Int) -> Int {
        Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
    }
}
