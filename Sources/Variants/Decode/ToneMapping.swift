import Foundation

/// HDR to SDR for HEIF and AVIF pictures whose `nclx` transfer is PQ (SMPTE ST 2084, code 16) or HLG
/// (ARIB STD-B67, code 18), and JPEG XL pictures whose colour encoding is. Read as if it were an SDR curve,
/// such a signal looks flat and dull, and its highlights clip; these pictures are tone-mapped instead, from
/// their coded samples (10 to 16 bits), at full size, before any reduction (the mapping is not linear), in
/// linear light:
///
/// 1. The signal becomes display light in cd/m²: PQ's EOTF; for HLG, BT.2100's inverse OETF and its OOTF
///    for a nominal 1000 cd/m² display (γ 1.2).
/// 2. The picture's peak is its brightest max(R, G, B) once the brightest 0.01 % of pixels are set aside (a
///    few hot pixels do not darken the rest), and at least HDR reference white, 203 cd/m² (BT.2408).
/// 3. ITU-R BT.2390's EETF maps [0, peak] onto [0, 203 cd/m²] — identity below its knee, a Hermite spline
///    above it, both in the PQ domain — applied to max(R, G, B), the three channels scaled by the same ratio
///    so hues are kept.
/// 4. 203 cd/m² is SDR white: reference white renders white in a picture that goes no brighter, and a little
///    below white (about 230 of 255 when the peak is 1000 cd/m²) when brighter highlights need the room;
///    highlights stay distinct up to the peak.
/// 5. The primaries (BT.2020, or what `nclx` names) become sRGB's through XYZ, colours outside sRGB are
///    clipped per channel, and sRGB's curve gives 8 bits.
struct ToneMapping: Sendable, Equatable {
    enum Transfer: String, Sendable {
        case pq, hlg
    }

    let transfer: Transfer
    /// Linear RGB in the picture's primaries → linear sRGB, row by row.
    let matrix: [Float]

    /// HDR reference white (BT.2408), which becomes SDR white.
    static let referenceWhite = 203.0
    /// HLG's nominal display peak, for which its OOTF is defined.
    static let hlgDisplayPeak = 1000.0

    /// nil unless the transfer is PQ or HLG. Unspecified primaries are taken as BT.2020, those of HDR video.
    init?(nclx: HeifContainer.NCLX) {
        switch nclx.transfer {
        case 16: transfer = .pq
        case 18: transfer = .hlg
        default: return nil
        }
        let (red, green, blue) = SynthesizedProfile.sRGBPrimaries
        let srgb = SynthesizedProfile(
            white: SynthesizedProfile.d65, red: red, green: green, blue: blue, curve: .sRGB)
        var source = SynthesizedProfile(
            white: SynthesizedProfile.d65, red: .init(x: 0.708, y: 0.292), green: .init(x: 0.170, y: 0.797),
            blue: .init(x: 0.131, y: 0.046), curve: .sRGB)
        if nclx.primaries == 1 {
            source = srgb
        } else if nclx.primaries != 2, nclx.chromaticities.count == 8,
            stride(from: 1, to: 8, by: 2).allSatisfy({ nclx.chromaticities[$0] > 0.01 })
        {
            let points = stride(from: 0, to: 8, by: 2).map {
                SynthesizedProfile.Chromaticity(x: nclx.chromaticities[$0], y: nclx.chromaticities[$0 + 1])
            }
            source = SynthesizedProfile(
                white: points[0], red: points[1], green: points[2], blue: points[3], curve: .sRGB)
        }
        // Both sides adapted to D50, so a source white other than D65 is adapted too (Bradford).
        let toXYZ = source.adaptedColorants()
        let fromXYZ = SynthesizedProfile.inverse(
            (0..<3).map { row in srgb.adaptedColorants().map { $0[row] } })
        matrix = fromXYZ.flatMap { row in
            (0..<3).map { column in Float((0..<3).reduce(0) { $0 + row[$1] * toXYZ[column][$1] }) }
        }
    }

    /// The primary image, tone-mapped to 8-bit sRGB at full size.
    func image(from container: HeifContainer) throws(BackendError) -> VipsImage {
        try container.mappedToEightBits { samples, output in
            switch samples.values {
            case .bytes(let values): map(samples, values, into: output)
            case .words(let values): map(samples, values, into: output)
            }
        }
    }

    /// A JPEG XL picture libvips decoded at full size (its samples still in the coded PQ or HLG signal),
    /// tone-mapped to 8-bit sRGB.
    func image(from decoded: VipsImage) throws(BackendError) -> VipsImage {
        try decoded.mappedToEightBits { samples, values, output in map(samples, values, into: output) }
    }

    /// Maps every pixel of `samples` into `output` (8 bits, same bands; alpha is rescaled, not mapped).
    func map<Sample>(
        _ samples: HeifContainer.CodedSamples, _ values: LentSamples<Sample>, into output: EightBitSamples
    ) {
        let bands = samples.bands
        let maximum = (1 << samples.bits) - 1
        // The signal of each code value, as display light (PQ) or scene light (HLG).
        let linear: [Float] = (0...maximum).map { code in
            let signal = Double(code) / Double(maximum)
            return Float(transfer == .pq ? Self.pqToNits(signal) : Self.hlgInverseOETF(signal))
        }
        let pixelCount = samples.width * samples.height
        let display = { (pixel: Int) -> (Float, Float, Float) in
            let at = pixel * bands
            let r = linear[min(maximum, values[at])]
            let g = linear[min(maximum, values[at + 1])]
            let b = linear[min(maximum, values[at + 2])]
            guard self.transfer == .hlg else { return (r, g, b) }
            let luminance = 0.2627 * r + 0.6780 * g + 0.0593 * b
            let gain = Float(Self.hlgDisplayPeak) * powf(luminance, 0.2)
            return (r * gain, g * gain, b * gain)
        }

        // Pass 1: the peak, from a histogram of max(R, G, B) on a square-root scale of 0-10,000 cd/m².
        let bins = 4096
        var histogram = [Int](repeating: 0, count: bins)
        for pixel in 0..<pixelCount {
            let (r, g, b) = display(pixel)
            histogram[Self.bin(max(r, g, b), bins: bins)] += 1
        }
        var setAside = pixelCount / 10_000
        var top = bins - 1
        while top > 0, histogram[top] <= setAside {
            setAside -= histogram[top]
            top -= 1
        }
        let peak = max(Self.referenceWhite, Self.binTop(top, bins: bins))

        // Pass 2: the EETF's ratio on a square-root scale of [0, peak], then primaries, clipping and sRGB.
        let steps = 4096
        let ratios: [Float] = (0...steps).map { step in
            let nits = peak * pow(Double(step) / Double(steps), 2)
            let mapped = nits > 0 ? Self.eetf(nits, peak: peak) / nits : 1
            return Float(mapped / Self.referenceWhite)
        }
        let encode: [UInt8] = (0...steps).map { step in
            let value = pow(Double(step) / Double(steps), 2)
            let encoded = value <= 0.003_130_8 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
            return UInt8((encoded * 255).rounded())
        }
        let m = matrix
        let scale = Float(steps)
        for pixel in 0..<pixelCount {
            let (r, g, b) = display(pixel)
            let position = min(scale, (max(r, g, b) / Float(peak)).squareRoot() * scale)
            let index = min(steps - 1, Int(position))
            let fraction = position - Float(index)
            let ratio = ratios[index] + (ratios[index + 1] - ratios[index]) * fraction
            let (sr, sg, sb) = (r * ratio, g * ratio, b * ratio)
            let channels = (
                m[0] * sr + m[1] * sg + m[2] * sb, m[3] * sr + m[4] * sg + m[5] * sb,
                m[6] * sr + m[7] * sg + m[8] * sb
            )
            let at = pixel * bands
            output[at] = encode[Int(min(1, max(0, channels.0)).squareRoot() * scale + 0.5)]
            output[at + 1] = encode[Int(min(1, max(0, channels.1)).squareRoot() * scale + 0.5)]
            output[at + 2] = encode[Int(min(1, max(0, channels.2)).squareRoot() * scale + 0.5)]
            if bands == 4 {
                output[at + 3] = UInt8((values[at + 3] * 255 + maximum / 2) / maximum)
            }
        }
    }

    // MARK: - Curves

    private static let m1 = 2610.0 / 16384
    private static let m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096
    private static let c2 = 2413.0 / 4096 * 32
    private static let c3 = 2392.0 / 4096 * 32

    /// SMPTE ST 2084's EOTF: a PQ signal in [0, 1] to cd/m².
    static func pqToNits(_ signal: Double) -> Double {
        let power = pow(max(0, signal), 1 / m2)
        return 10_000 * pow(max(0, power - c1) / (c2 - c3 * power), 1 / m1)
    }

    /// Its inverse: cd/m² to a PQ signal.
    static func nitsToPQ(_ nits: Double) -> Double {
        let y = pow(max(0, nits) / 10_000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// BT.2100's inverse HLG OETF: a signal in [0, 1] to normalised scene light in [0, 1].
    static func hlgInverseOETF(_ signal: Double) -> Double {
        let a = 0.178_832_77
        let b = 1 - 4 * a
        let c = 0.5 - a * log(4 * a)
        return signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
    }

    /// BT.2390's EETF from a source of [0, `peak`] cd/m² to a display of [0, 203] cd/m² (black at 0 on both,
    /// so no black lift): identity below the knee, the Hermite spline above it.
    static func eetf(_ nits: Double, peak: Double) -> Double {
        let sourceTop = nitsToPQ(peak)
        let signal = nitsToPQ(min(nits, peak)) / sourceTop
        let maxLuminance = nitsToPQ(referenceWhite) / sourceTop
        let knee = 1.5 * maxLuminance - 0.5
        guard signal > knee, knee < 1 else { return pqToNits(signal * sourceTop) }
        let t = (signal - knee) / (1 - knee)
        let (t2, t3) = (t * t, t * t * t)
        let spline =
            (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * maxLuminance
        return pqToNits(spline * sourceTop)
    }

    private static func bin(_ nits: Float, bins: Int) -> Int {
        min(bins - 1, Int((max(0, nits) / 10_000).squareRoot() * Float(bins - 1)))
    }

    /// The brightest light a histogram bin holds.
    private static func binTop(_ bin: Int, bins: Int) -> Double {
        min(10_000, 10_000 * pow(Double(bin + 1) / Double(bins - 1), 2))
    }
}
