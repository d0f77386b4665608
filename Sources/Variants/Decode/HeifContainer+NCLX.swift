extension HeifContainer {
    /// An `nclx` colour description: ISO/IEC 23091-2 code points and the chromaticities of the primaries. Plain
    /// values, apart from libheif, so the profile reader that also yields them can be fuzzed on its own.
    struct NCLX: Sendable, Equatable {
        var primaries: Int
        var transfer: Int
        /// White, red, green and blue (x, y).
        var chromaticities: [Double]
    }
}
