extension SynthesizedProfile {
    /// The profile a HEIF or AVIF `nclx` description stands for, or nil when it is sRGB already (BT.709 or
    /// unspecified primaries with an sRGB-like transfer) or its transfer is not one converted here. BT.709
    /// and BT.2020's camera curves are displayed with sRGB's, as browsers do.
    init?(nclx: HeifContainer.NCLX) {
        let curve: ToneCurve
        switch nclx.transfer {
        case 1, 2, 6, 13, 14, 15: curve = .sRGB  // BT.709, unspecified, BT.601, sRGB, BT.2020 10 and 12 bit
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .gamma(1)
        default: return nil
        }
        guard ![1, 2].contains(nclx.primaries), nclx.chromaticities.count == 8,
            stride(from: 1, to: 8, by: 2).allSatisfy({ nclx.chromaticities[$0] > 0.01 })
        else {
            guard case .gamma(let gamma) = curve else { return nil }
            let (red, green, blue) = Self.sRGBPrimaries
            self.init(white: Self.d65, red: red, green: green, blue: blue, curve: .gamma(gamma))
            return
        }
        let points = stride(from: 0, to: 8, by: 2).map {
            Chromaticity(x: nclx.chromaticities[$0], y: nclx.chromaticities[$0 + 1])
        }
        self.init(white: points[0], red: points[1], green: points[2], blue: points[3], curve: curve)
        if isSRGB { return nil }
    }
}
