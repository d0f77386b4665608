/// The reference's Gaussian blur of σ 1.5: Charalampidis' recursive filter made of three truncated cosines
/// ("Recursive Implementation of the Gaussian Filter Using Truncated Cosine Functions", 2016), run along the
/// rows, then down the columns, reading zero beyond every edge.
///
/// The coefficients follow from σ alone (radius N = round(3.2795 σ + 0.2546) = 5, ω_k = kπ / 2N for k = 1, 3,
/// 5, the filter weights β solved from the paper's equations 50–56); they are written out here, and
/// `RecursiveGaussianTests` derives them again from those equations.
///
/// The recursion runs in double precision, the planes stay single: its poles lie on the unit circle, so in
/// single precision rounding grows along a row, enough to move a score near 90 by half a point.
enum RecursiveGaussian {
    static let radius = 5
    /// n₂ of each cosine: −β_k cos(ω_k (N + 1)).
    static let inputWeights: (Double, Double, Double) = (
        0.055_295_235_726_086_61, -0.058_836_687_026_949_96, 0.012_955_819_110_517_082
    )
    /// d₁ of each cosine: −2 cos(ω_k).
    static let feedback: (Double, Double, Double) = (
        -1.902_113_032_590_307, -1.175_570_504_584_946_3, -1.224_646_799_147_353_2e-16
    )

    /// The blurred plane.
    static func blur(_ plane: Plane) -> Plane {
        vertical(horizontal(plane))
    }

    /// Each row through the filter: y_k[n] = n₂ (x[n − N − 1] + x[n + N − 1]) − d₁ y_k[n − 1] − y_k[n − 2],
    /// started N − 1 samples before the row so that output n is centred on input n. Four rows run side by side,
    /// one per vector lane, since each sample waits on the one before it.
    static func horizontal(_ plane: Plane) -> Plane {
        let width = plane.width
        let height = plane.height
        let pad = 2 * radius
        var padded = [SIMD4<Double>](repeating: .zero, count: width + 2 * pad)
        var values = [Float](repeating: 0, count: plane.values.count)
        let input = plane.values.span
        var output = values.mutableSpan
        var rows = padded.mutableSpan
        let (n1, n3, n5) = (
            SIMD4(repeating: inputWeights.0), SIMD4(repeating: inputWeights.1),
            SIMD4(repeating: inputWeights.2)
        )
        let (d1, d3, d5) = (
            SIMD4(repeating: feedback.0), SIMD4(repeating: feedback.1), SIMD4(repeating: feedback.2)
        )
        for top in stride(from: 0, to: height, by: 4) {
            let lanes = min(4, height - top)
            for x in 0..<width {
                var column = SIMD4<Double>.zero
                for lane in 0..<lanes {
                    column[lane] = Double(input[(top + lane) * width + x])
                }
                rows[pad + x] = column
            }
            var previous1 = SIMD4<Double>.zero
            var previous3 = SIMD4<Double>.zero
            var previous5 = SIMD4<Double>.zero
            var beforePrevious1 = SIMD4<Double>.zero
            var beforePrevious3 = SIMD4<Double>.zero
            var beforePrevious5 = SIMD4<Double>.zero
            // Padded index i holds x = i − 2N, so the pair for output n sits at n + N − 1 and n + 3N − 1.
            for n in (1 - radius)..<width {
                let sum = rows[n + radius - 1] + rows[n + 3 * radius - 1]
                let out1 = n1 * sum - d1 * previous1 - beforePrevious1
                let out3 = n3 * sum - d3 * previous3 - beforePrevious3
                let out5 = n5 * sum - d5 * previous5 - beforePrevious5
                beforePrevious1 = previous1
                beforePrevious3 = previous3
                beforePrevious5 = previous5
                previous1 = out1
                previous3 = out3
                previous5 = out5
                if n >= 0 {
                    let total = out1 + out3 + out5
                    for lane in 0..<lanes {
                        output[(top + lane) * width + n] = Float(total[lane])
                    }
                }
            }
        }
        return Plane(width: width, height: height, values: values)
    }

    /// The same recursion down every column at once, one row of state per cosine and step back.
    static func vertical(_ plane: Plane) -> Plane {
        let width = plane.width
        let height = plane.height
        var values = [Float](repeating: 0, count: plane.values.count)
        var sums = [Double](repeating: 0, count: width)
        var state1 = [Double](repeating: 0, count: width)
        var state2 = state1
        var state3 = state1
        var state4 = state1
        var state5 = state1
        var state6 = state1
        let input = plane.values.span
        var output = values.mutableSpan
        var sum = sums.mutableSpan
        var previous1 = state1.mutableSpan
        var beforePrevious1 = state2.mutableSpan
        var previous3 = state3.mutableSpan
        var beforePrevious3 = state4.mutableSpan
        var previous5 = state5.mutableSpan
        var beforePrevious5 = state6.mutableSpan
        let (n1, n3, n5) = inputWeights
        let (d1, d3, d5) = feedback
        for n in (1 - radius)..<height {
            let top = n - radius - 1
            let bottom = n + radius - 1
            for x in 0..<width {
                sum[x] = 0
            }
            if top >= 0 {
                for x in 0..<width {
                    sum[x] += Double(input[top * width + x])
                }
            }
            if bottom < height {
                for x in 0..<width {
                    sum[x] += Double(input[bottom * width + x])
                }
            }
            for x in 0..<width {
                let out1 = n1 * sum[x] - d1 * previous1[x] - beforePrevious1[x]
                let out3 = n3 * sum[x] - d3 * previous3[x] - beforePrevious3[x]
                let out5 = n5 * sum[x] - d5 * previous5[x] - beforePrevious5[x]
                beforePrevious1[x] = previous1[x]
                beforePrevious3[x] = previous3[x]
                beforePrevious5[x] = previous5[x]
                previous1[x] = out1
                previous3[x] = out3
                previous5[x] = out5
                sum[x] = out1 + out3 + out5
            }
            if n >= 0 {
                for x in 0..<width {
                    output[n * width + x] = Float(sum[x])
                }
            }
        }
        return Plane(width: width, height: height, values: values)
    }
}
