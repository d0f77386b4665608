import Foundation

/// An ICC matrix/TRC RGB profile (or a grey TRC one, for grey pixels) built from a colour description that is
/// not a profile — PNG `gAMA` and `cHRM`, HEIF `nclx` primaries and transfer — so that every source converts to
/// sRGB through the same lcms path as an embedded profile.
struct SynthesizedProfile: Sendable, Equatable {
    /// CIE xy chromaticities.
    struct Chromaticity: Sendable, Equatable {
        var x: Double
        var y: Double
    }

    enum ToneCurve: Sendable, Equatable {
        /// Decoding exponent: linear = encoded ^ gamma.
        case gamma(Double)
        /// sRGB's piecewise curve (also used for BT.709 and Display P3 pictures, as browsers do).
        case sRGB
    }

    var white: Chromaticity
    var red: Chromaticity
    var green: Chromaticity
    var blue: Chromaticity
    var curve: ToneCurve
    /// A grey profile: only the curve applies, to the one channel, and grey stays neutral.
    var isGrey = false

    static let d65 = Chromaticity(x: 0.3127, y: 0.3290)
    static let sRGBPrimaries = (
        red: Chromaticity(x: 0.64, y: 0.33), green: Chromaticity(x: 0.30, y: 0.60),
        blue: Chromaticity(x: 0.15, y: 0.06)
    )

    /// Whether converting through this profile would change nothing: sRGB's primaries and curve.
    var isSRGB: Bool {
        if isGrey { return curve == .sRGB }
        let close = { (a: Chromaticity, b: Chromaticity) in abs(a.x - b.x) < 0.001 && abs(a.y - b.y) < 0.001 }
        return curve == .sRGB && close(white, Self.d65) && close(red, Self.sRGBPrimaries.red)
            && close(green, Self.sRGBPrimaries.green) && close(blue, Self.sRGBPrimaries.blue)
    }

    /// The profile's bytes: a version 2 display profile with colorants adapted to D50 (Bradford).
    var bytes: [UInt8] {
        var tags: [(String, [UInt8])] = [("wtpt", xyzTag(Self.d50))]
        if isGrey {
            tags.append(("kTRC", toneCurveTag()))
        } else {
            for (name, column) in zip(["rXYZ", "gXYZ", "bXYZ"], adaptedColorants()) {
                tags.append((name, xyzTag(column)))
            }
            let curveTag = toneCurveTag()
            for name in ["rTRC", "gTRC", "bTRC"] { tags.append((name, curveTag)) }
        }

        var body: [UInt8] = []
        var table: [UInt8] = []
        let dataStart = 128 + 4 + tags.count * 12
        table += Self.u32(tags.count)
        for (name, data) in tags {
            table += Array(name.utf8) + Self.u32(dataStart + body.count) + Self.u32(data.count)
            body += data
            body += [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        }
        var header = [UInt8](repeating: 0, count: 128)
        let total = 128 + table.count + body.count
        header.replaceSubrange(0..<4, with: Self.u32(total))
        header.replaceSubrange(8..<12, with: [2, 0x10, 0, 0])
        header.replaceSubrange(12..<24, with: Array((isGrey ? "mntrGRAYXYZ " : "mntrRGB XYZ ").utf8))
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        header.replaceSubrange(68..<80, with: Self.d50.flatMap(Self.s15Fixed16))
        return header + table + body
    }

    private static let d50 = [0.9642, 1.0, 0.8249]

    /// The red, green and blue columns of the RGB → XYZ matrix for this white, adapted to D50.
    func adaptedColorants() -> [[Double]] {
        let xyz = { (c: Chromaticity) in [c.x / c.y, 1, (1 - c.x - c.y) / c.y] }
        let primaries = [xyz(red), xyz(green), xyz(blue)]
        let whiteXYZ = xyz(white)
        let matrix = (0..<3).map { row in primaries.map { $0[row] } }
        let scale = Self.multiply(Self.inverse(matrix), whiteXYZ)
        let bradford = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let source = Self.multiply(bradford, whiteXYZ)
        let target = Self.multiply(bradford, Self.d50)
        return primaries.enumerated().map { index, primary in
            let column = primary.map { $0 * scale[index] }
            let cone = Self.multiply(bradford, column)
            return Self.multiply(Self.inverse(bradford), (0..<3).map { cone[$0] * target[$0] / source[$0] })
        }
    }

    private func toneCurveTag() -> [UInt8] {
        switch curve {
        case .gamma(let gamma):
            let encoded = Int((gamma * 256).rounded())
            return Array("curv".utf8) + [0, 0, 0, 0] + Self.u32(1) + [
                UInt8(encoded >> 8 & 0xFF), UInt8(encoded & 0xFF),
            ]
        case .sRGB:
            let parameters = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            return Array("para".utf8) + [0, 0, 0, 0, 0, 3, 0, 0] + parameters.flatMap(Self.s15Fixed16)
        }
    }

    private func xyzTag(_ value: [Double]) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + value.flatMap(Self.s15Fixed16)
    }

    private static func s15Fixed16(_ value: Double) -> [UInt8] {
        u32(Int(UInt32(bitPattern: Int32((value * 65536).rounded()))))
    }

    private static func u32(_ value: Int) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    static func multiply(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        matrix.map { row in zip(row, vector).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    static func inverse(_ m: [[Double]]) -> [[Double]] {
        let cofactors = (0..<3).map { row in
            (0..<3).map { column in
                let r = [(row + 1) % 3, (row + 2) % 3]
                let c = [(column + 1) % 3, (column + 2) % 3]
                return m[r[0]][c[0]] * m[r[1]][c[1]] - m[r[0]][c[1]] * m[r[1]][c[0]]
            }
        }
        let determinant = (0..<3).reduce(0) { $0 + m[0][$1] * cofactors[0][$1] }
        return (0..<3).map { row in (0..<3).map { column in cofactors[column][row] / determinant } }
    }
}
