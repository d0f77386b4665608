import Foundation
import Testing

@testable import SSIMULACRA2

@Suite struct ElementaryFunctionsTests {
    @Test func cubeRootIsExactToSinglePrecisionOverXYBsRange() {
        var value: Float = 0.0037
        while value < 1.1 {
            let exact = cbrt(Double(value))
            #expect(abs(Double(ElementaryFunctions.cubeRoot(value)) - exact) <= 4e-7 * exact)
            value *= 1.001
        }
    }

    @Test(arguments: [2.4, 0.627_633_646_783_138_7])
    func powerMatchesTheLibrary(exponent: Double) {
        for base in stride(from: 0.001, through: 60, by: 0.173) {
            let exact = pow(base, exponent)
            #expect(abs(ElementaryFunctions.power(base, exponent) - exact) <= 1e-13 * exact)
        }
    }
}
