/// The per-pixel factors the reference derives from an alpha byte, computed once for all 256 values.
///
/// The encoder would otherwise divide twice per pixel; a table gives the very same doubles.
struct AlphaTable: Sendable {
    /// `a / 255`.
    let alpha: InlineArray<256, Double>
    /// `a / 255 / 255`, the weight of a colour byte.
    let weight: InlineArray<256, Double>
    /// `1 - a / 255`, the weight of the average colour underneath.
    let uncovered: InlineArray<256, Double>

    static let shared = AlphaTable()

    private init() {
        alpha = InlineArray { Double($0) / 255 }
        weight = InlineArray { Double($0) / 255 / 255 }
        uncovered = InlineArray { 1 - Double($0) / 255 }
    }
}
