import Foundation
import Testing

@testable import SSIMULACRA2

@Suite struct RecursiveGaussianTests {
    /// The written-out coefficients, derived again from Charalampidis' equations for σ 1.5.
    @Test func coefficientsFollowFromSigma() {
        let sigma = 1.5
        let radius = (3.2795 * sigma + 0.2546).rounded()
        #expect(Int(radius) == RecursiveGaussian.radius)
        let omega = [1.0, 3, 5].map { $0 * Double.pi / (2 * radius) }
        let p = [1 / tan(omega[0] / 2), -1 / tan(omega[1] / 2), 1 / tan(omega[2] / 2)]
        let r = [p[0] * p[0] / sin(omega[0]), -p[1] * p[1] / sin(omega[1]), p[2] * p[2] / sin(omega[2])]
        let rho = omega.map { exp(-0.5 * sigma * sigma * $0 * $0) / radius }
        let d13 = p[0] * r[1] - r[0] * p[1]
        let zeta15 = (p[1] * r[2] - r[1] * p[2]) / d13
        let zeta35 = (p[2] * r[0] - r[2] * p[0]) / d13
        // A β = γ, solved by Cramer's rule.
        let a = [[p[0], p[1], p[2]], [r[0], r[1], r[2]], [zeta15, zeta35, 1]]
        let gamma = [1, radius * radius - sigma * sigma, zeta15 * rho[0] + zeta35 * rho[1] + rho[2]]
        func determinant(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1]
                * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let beta = (0..<3).map { column in
            determinant(
                a.indices.map { row in a[row].indices.map { $0 == column ? gamma[row] : a[row][$0] } })
                / determinant(a)
        }
        let n2 = (0..<3).map { -beta[$0] * cos(omega[$0] * (radius + 1)) }
        let d1 = (0..<3).map { -2 * cos(omega[$0]) }
        let (n1, n3, n5) = RecursiveGaussian.inputWeights
        let (f1, f3, f5) = RecursiveGaussian.feedback
        for (derived, written) in zip(n2 + d1, [n1, n3, n5, f1, f3, f5]) {
            #expect(abs(derived - written) <= 1e-15)
        }
    }

    /// Far from the edges a flat plane stays flat (the weights sum to one); at the edges it darkens, since the
    /// filter reads zero outside.
    @Test func aFlatPlaneStaysFlatInsideAndFadesAtTheEdges() {
        let plane = Plane(width: 40, height: 30, values: [Float](repeating: 0.5, count: 1200))
        let blurred = RecursiveGaussian.blur(plane)
        #expect(abs(blurred.values[15 * 40 + 20] - 0.5) < 1e-4)
        #expect(blurred.values[0] < 0.4)
    }

    /// A single bright pixel spreads symmetrically, centred where it was.
    @Test func anImpulseSpreadsSymmetrically() {
        var plane = Plane(width: 31, height: 31)
        plane.values[15 * 31 + 15] = 1
        let blurred = RecursiveGaussian.blur(plane)
        for offset in 1...6 {
            let left = blurred.values[15 * 31 + 15 - offset]
            let right = blurred.values[15 * 31 + 15 + offset]
            let up = blurred.values[(15 - offset) * 31 + 15]
            #expect(abs(left - right) < 1e-6)
            #expect(abs(left - up) < 1e-6)
            #expect(left < blurred.values[15 * 31 + 15])
        }
    }
}
