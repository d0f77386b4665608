/// The per-pixel factors the reference derives from an alpha byte, computed once for all 256 values.
///
/// Entry `a` holds `(a / 255, a / 255 / 255, 1 - a / 255, 0)`: the coverage, the weight of a colour byte
/// and the weight of the average colour underneath. The encoder would otherwise divide twice per pixel;
/// the table gives the very same doubles.
enum AlphaTable {
    static let factors = InlineArray<256, SIMD4<Double>> { byte in
        let alpha = Double(byte) / 255
        return SIMD4(alpha, alpha / 255, 1 - alpha, 0)
    }
}
