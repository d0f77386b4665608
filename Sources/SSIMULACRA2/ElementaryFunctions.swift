/// The few transcendental functions the metric needs, in plain Swift so the module stands on the standard
/// library alone.
enum ElementaryFunctions {
    /// The cube root of a positive value, to single precision: a bit-level first guess (within a few per
    /// cent) and two of Halley's steps, each cubing the error.
    @inline(__always)
    static func cubeRoot(_ value: Float) -> Float {
        var root = Float(bitPattern: value.bitPattern / 3 &+ 0x2A51_4067)
        for _ in 0..<2 {
            let cube = root * root * root
            root *= (cube + 2 * value) / (2 * cube + value)
        }
        return root
    }

    /// `base` raised to `exponent`, for a positive base.
    static func power(_ base: Double, _ exponent: Double) -> Double {
        exp(exponent * log(base))
    }

    /// The natural logarithm of a positive value: its binary exponent times ln 2, plus the logarithm of the
    /// significand through the series of 2·atanh.
    static func log(_ value: Double) -> Double {
        var exponent = Double(value.exponent)
        var significand = value.significand
        if significand > 2.0.squareRoot() {
            significand /= 2
            exponent += 1
        }
        let ratio = (significand - 1) / (significand + 1)
        let square = ratio * ratio
        var term = ratio
        var sum = 0.0
        var denominator = 1.0
        while abs(term / denominator) > 1e-18 {
            sum += term / denominator
            term *= square
            denominator += 2
        }
        return exponent * ln2 + 2 * sum
    }

    /// e to the `value`: reduced by multiples of ln 2 to within ±ln 2 / 2, then its Taylor series.
    static func exp(_ value: Double) -> Double {
        let multiple = (value / ln2).rounded()
        let remainder = value - multiple * ln2
        var term = 1.0
        var sum = 1.0
        var index = 1.0
        while abs(term) > 1e-18 {
            term *= remainder / index
            sum += term
            index += 1
        }
        return Double(sign: .plus, exponent: Int(multiple), significand: sum)
    }

    private static let ln2 = 0.693_147_180_559_945_3
}
