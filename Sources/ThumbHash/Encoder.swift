/// The reference encoder (`rgbaToThumbHash` in evanw/thumbhash's js/thumbhash.js), bit for bit.
///
/// Each DCT coefficient is a sum over every pixel in raster order, and the rounding noise of that sum
/// decides some hash bits of flat images, so each sum must run in exactly that order. Rather than one pass
/// per coefficient, the encoder walks the pixels once and advances all sums side by side in SIMD lanes;
/// every lane performs the reference's scalar operations in the reference's order, with no fused
/// multiply-add. All working storage is fixed-size and lives on the stack.
///
/// Read-only `InlineArray`s are read through `span`: in Swift 6.3, subscripting a `let` InlineArray copies
/// the whole array first, which made every table lookup a memcpy.
enum Encoder {
    static let maxSide = 100

    static func encode(width: Int, height: Int, rgba: Span<UInt8>) throws(ThumbHashError) -> [UInt8] {
        guard 1...maxSide ~= width, 1...maxSide ~= height else {
            throw .dimensionsOutOfRange(width: width, height: height)
        }
        let pixelCount = width * height
        guard rgba.count == pixelCount * 4 else {
            throw .pixelBufferLength(expected: pixelCount * 4, actual: rgba.count)
        }
        let alphaFactors = AlphaTable.factors.span

        var average = SIMD4<Double>.zero
        for index in stride(from: 0, to: pixelCount * 4, by: 4) {
            let factors = alphaFactors[Int(rgba[index + 3])]
            let weight = factors[1]
            average += SIMD4(
                weight * Double(rgba[index]),
                weight * Double(rgba[index + 1]),
                weight * Double(rgba[index + 2]),
                factors[0]
            )
        }
        let coverage = average[3]
        if coverage != 0 {
            average /= SIMD4(coverage, coverage, coverage, 1)
        }

        let hasAlpha = coverage < Double(pixelCount)
        let lLimit = hasAlpha ? 5 : 7
        let longest = Double(max(width, height))
        let lx = max(1, javaScriptRound(Double(lLimit * width) / longest))
        let ly = max(1, javaScriptRound(Double(lLimit * height) / longest))
        let layout = LaneLayout(lx: max(3, lx), ly: max(3, ly), hasAlpha: hasAlpha)
        let coefficients = accumulate(
            width: width, height: height, rgba: rgba, average: average, layout: layout
        )
        return pack(coefficients, layout: layout, isLandscape: width > height, lx: lx, ly: ly)
    }

    /// Every coefficient: the sum of `channel * fx * fy` over the pixels composited on the average
    /// colour, divided by the pixel count; indexed by lane.
    private static func accumulate(
        width: Int, height: Int, rgba: Span<UInt8>, average: SIMD4<Double>, layout: LaneLayout
    ) -> LaneLayout.PerLane<Double> {
        let fxTable = basis(size: width, components: layout.componentsX)
        let fyTable = basis(size: height, components: layout.componentsY)
        let (fx, fy) = (fxTable.span, fyTable.span)
        let (laneCX, laneCY) = (layout.cx.span, layout.cy.span)
        var fxLanes = InlineArray<600, SIMD8<Double>>(repeating: .zero)
        for x in 0..<width {
            for chunk in 0..<6 {
                fxLanes[x * 6 + chunk] = gather(laneCX, chunk: chunk, fx, at: x)
            }
        }

        let alphaFactors = AlphaTable.factors.span
        let hasAlpha = layout.hasAlpha
        let zero = SIMD8<Double>.zero
        var (sum0, sum1, sum2, sum3, sum4, sum5) = (zero, zero, zero, zero, zero, zero)
        // A row's L, P, Q and A (or L again) are worked out ahead, which keeps the division by 3 off the
        // critical path of the sums.
        var row = InlineArray<100, SIMD4<Double>>(repeating: .zero)
        var index = 0
        for y in 0..<height {
            for x in 0..<width {
                let factors = alphaFactors[Int(rgba[index + 3])]
                let pixel = SIMD4(Double(rgba[index]), Double(rgba[index + 1]), Double(rgba[index + 2]), 0)
                let color = average * factors[2] + factors[1] * pixel
                let (r, g, b) = (color[0], color[1], color[2])
                let l = (r + g + b) / 3
                row[x] = SIMD4(l, (r + g) / 2 - b, r - g, hasAlpha ? factors[0] : l)
                index &+= 4
            }
            let fy0 = gather(laneCY, chunk: 0, fy, at: y)
            let fy1 = gather(laneCY, chunk: 1, fy, at: y)
            let fy2 = gather(laneCY, chunk: 2, fy, at: y)
            let fy3 = gather(laneCY, chunk: 3, fy, at: y)
            let fy4 = gather(laneCY, chunk: 4, fy, at: y)
            let fy5 = gather(laneCY, chunk: 5, fy, at: y)
            for x in 0..<width {
                let channels = row[x]
                let l = SIMD8(repeating: channels[0])
                let p = SIMD8(repeating: channels[1])
                let q = SIMD8(repeating: channels[2])
                let shared = SIMD8(repeating: channels[3])
                let lanes = x &* 6
                sum0 += l * fxLanes[lanes] * fy0
                sum1 += l * fxLanes[lanes &+ 1] * fy1
                sum2 += shared * fxLanes[lanes &+ 2] * fy2
                sum3 += shared * fxLanes[lanes &+ 3] * fy3
                sum4 += p * fxLanes[lanes &+ 4] * fy4
                sum5 += q * fxLanes[lanes &+ 5] * fy5
            }
        }
        let sums: LaneLayout.PerChunk<SIMD8<Double>> = [sum0, sum1, sum2, sum3, sum4, sum5]
        var coefficients = LaneLayout.PerLane<Double>(repeating: 0)
        for lane in 0..<48 {
            coefficients[lane] = sums.span[lane / 8][lane % 8] / Double(width * height)
        }
        return coefficients
    }

    /// `cos(π/n·c·(i+½))` at `c * maxSide + i`: the basis along one axis, for every component in use.
    private static func basis(size: Int, components: Int) -> InlineArray<700, Double> {
        var values = InlineArray<700, Double>(repeating: 0)
        for component in 0..<components {
            for index in 0..<size {
                values[component * maxSide + index] =
                    DCTBasis.encoder(size: size, component: component, index: index)
            }
        }
        return values
    }

    /// One chunk's factors at `index`: the basis value of each lane's component, zero in padding lanes.
    private static func gather(
        _ components: Span<Int>, chunk: Int, _ basis: Span<Double>, at index: Int
    ) -> SIMD8<Double> {
        var result = SIMD8<Double>.zero
        for offset in 0..<8 where components[chunk * 8 + offset] >= 0 {
            result[offset] = basis[components[chunk * 8 + offset] * maxSide + index]
        }
        return result
    }

    /// Quantises the coefficients and lays out the bytes, OR-ing unmasked values the way the reference
    /// does before its `Uint8Array` store truncates them.
    private static func pack(
        _ coefficients: LaneLayout.PerLane<Double>, layout: LaneLayout, isLandscape: Bool, lx: Int, ly: Int
    ) -> [UInt8] {
        let values = coefficients.span
        let counts = layout.coefficientCount.span
        let hasAlpha = layout.hasAlpha
        var dc = InlineArray<4, Double>(repeating: 0)
        var scale = InlineArray<4, Double>(repeating: 0)
        for channel in LaneLayout.Channel.allCases where counts[channel.rawValue] > 0 {
            dc[channel.rawValue] = values[channel.firstLane]
            for index in 1..<counts[channel.rawValue] {
                scale[channel.rawValue] = max(scale[channel.rawValue], abs(values[channel.firstLane + index]))
            }
        }
        let header24 =
            javaScriptRound(63 * dc[0])
            | javaScriptRound(31.5 + 31.5 * dc[1]) << 6
            | javaScriptRound(31.5 + 31.5 * dc[2]) << 12
            | javaScriptRound(31 * scale[0]) << 18
            | (hasAlpha ? 1 : 0) << 23
        let header16 =
            (isLandscape ? ly : lx)
            | javaScriptRound(63 * scale[1]) << 3
            | javaScriptRound(63 * scale[2]) << 9
            | (isLandscape ? 1 : 0) << 15
        var words = InlineArray<32, Int>(repeating: 0)
        words[0] = header24 & 255
        words[1] = header24 >> 8 & 255
        words[2] = header24 >> 16
        words[3] = header16 & 255
        words[4] = header16 >> 8
        if hasAlpha {
            words[5] = javaScriptRound(15 * dc[3]) | javaScriptRound(15 * scale[3]) << 4
        }
        let acStart = hasAlpha ? 6 : 5
        var nibble = 0
        for channel in LaneLayout.Channel.allCases where counts[channel.rawValue] > 0 {
            for index in 1..<counts[channel.rawValue] {
                var value = values[channel.firstLane + index]
                if scale[channel.rawValue] != 0 {
                    value = 0.5 + 0.5 / scale[channel.rawValue] * value
                }
                words[acStart + (nibble >> 1)] |= javaScriptRound(15 * value) << ((nibble & 1) << 2)
                nibble += 1
            }
        }
        return (0..<acStart + (nibble + 1) / 2).map { UInt8(truncatingIfNeeded: words[$0]) }
    }
}
