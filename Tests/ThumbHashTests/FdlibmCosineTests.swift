import Testing

@testable import ThumbHash

/// The cosine must be fdlibm's, bit for bit: expected values from the fdlibm port in `oracle.py`.
@Suite struct FdlibmCosineTests {
    /// Arguments covering each reduction path (none, one step of π/2, the medium reduction, arguments at
    /// multiples of π/2), then three ThumbHash arguments where glibc's `cos` is one ulp away.
    static let cases: [(x: Double, cos: Double)] = [
        (0x0.0p+0, 0x1.0000000000000p+0),
        (0x1.12e0be826d695p-30, 0x1.0000000000000p+0),
        (0x1.0000000000000p-2, 0x1.f01549f7deea1p-1),
        (0x1.6666666666666p-1, 0x1.87996529f9d93p-1),
        (0x1.0000000000000p+1, -0x1.aa22657537205p-2),
        (-0x1.0000000000000p+1, -0x1.aa22657537205p-2),
        (0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54),
        (-0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54),
        (0x1.2d97c7f3321d2p+2, -0x1.a79394c9e8a0ap-53),
        (0x1.2d97c7f3321d2p+4, 0x1.0000000000000p+0),
        (0x1.5000000000000p+4, -0x1.186ff83773759p-1),
        (0x1.921fb54442d18p+2, 0x1.0000000000000p+0),
        (0x1.e28c731eb6950p+1, -0x1.9e3779b97f4a8p-1),
        (0x1.a63ae4badfc26p+3, 0x1.9e3779b97f4abp-1),
        (0x1.005a9d2850ff3p+3, -0x1.4060b67a8538ap-3),
    ]

    @Test(arguments: cases.indices)
    func matchesFdlibm(index: Int) {
        let (x, expected) = Self.cases[index]
        #expect(FdlibmCosine.cos(x).bitPattern == expected.bitPattern)
    }

    /// The encoder's and decoder's arguments differ in association, which is why both exist.
    @Test func encoderAndDecoderBasisFollowTheirOwnArgumentOrder() {
        #expect(DCTBasis.encoder(size: 5, component: 4, index: 1) == -0x1.9e3779b97f4a8p-1)
        #expect(DCTBasis.encoder(size: 7, component: 0, index: 3) == 1)
        #expect(DCTBasis.decoder(size: 32, component: 0, index: 9) == 1)
    }
}
