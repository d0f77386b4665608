/// The reference encoder (`rgbaToThumbHash` in evanw/thumbhash's js/thumbhash.js), bit for bit.
///
/// Each DCT coefficient is a sum over every pixel in raster order, and the rounding noise of that sum
/// decides some hash bits of flat images, so each sum must run in exactly that order. Rather than one pass
/// per coefficient, the encoder walks the pixels once and advances all sums side by side in SIMD lanes;
/// every lane performs the reference's scalar operations in the reference's order, with no fused
/// multiply-add. All working storage is fixed-size and lives on the stack.
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
        let table = AlphaTable.shared

        var average = SIMD4<Double>.zero
        for index in stride(from: 0, to: pixelCount * 4, by: 4) {
            let alpha = Int(rgba[index + 3])
            let weight = table.weight[alpha]
            average += SIMD4(
                weight * Double(rgba[index]),
                weight * Double(rgba[index + 1]),
                weight * Double(rgba[index + 2]),
                table.alpha[alpha]
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
        let layout = LaneLayout(
            [(max(3, lx), max(3, ly)), (3, 3), (3, 3), (5, 5)],
            channelCount: hasAlpha ? 4 : 3
        )
        let sums = accumulate(width: width, height: height, rgba: rgba, average: average, layout: layout)
        return pack(
            sums, pixelCount: pixelCount, layout: layout,
            hasAlpha: hasAlpha, isLandscape: width > height, lx: lx, ly: ly
        )
    }

    /// Every coefficient's sum of `channel * fx * fy` over the pixels composited on the average colour.
    private static func accumulate(
        width: Int, height: Int, rgba: Span<UInt8>, average: SIMD4<Double>, layout: LaneLayout
    ) -> LaneLayout.PerChunk<SIMD4<Double>> {
        var fx = InlineArray<700, Double>(repeating: 0)
        for component in 0..<layout.componentsX {
            for x in 0..<width {
                fx[component * maxSide + x] = DCTBasis.encoder(size: width, component: component, index: x)
            }
        }
        var fy = InlineArray<700, Double>(repeating: 0)
        for component in 0..<layout.componentsY {
            for y in 0..<height {
                fy[component * maxSide + y] = DCTBasis.encoder(size: height, component: component, index: y)
            }
        }
        let chunkCount = layout.chunkCount
        var fxLanes = InlineArray<1200, SIMD4<Double>>(repeating: .zero)
        for x in 0..<width {
            for chunk in 0..<chunkCount {
                fxLanes[x * chunkCount + chunk] = layout.xFactors(chunk: chunk) { fx[$0 * maxSide + x] }
            }
        }

        let table = AlphaTable.shared
        var sums = LaneLayout.PerChunk<SIMD4<Double>>(repeating: .zero)
        var fyRow = LaneLayout.PerChunk<SIMD4<Double>>(repeating: .zero)
        var index = 0
        for y in 0..<height {
            for chunk in 0..<chunkCount {
                fyRow[chunk] = layout.yFactors(chunk: chunk) { fy[$0 * maxSide + y] }
            }
            for x in 0..<width {
                let alpha = Int(rgba[index + 3])
                let pixel = SIMD4(Double(rgba[index]), Double(rgba[index + 1]), Double(rgba[index + 2]), 0)
                let color = average * table.uncovered[alpha] + table.weight[alpha] * pixel
                let (r, g, b) = (color[0], color[1], color[2])
                let channels = SIMD4((r + g + b) / 3, (r + g) / 2 - b, r - g, table.alpha[alpha])
                let row = x * chunkCount
                for chunk in 0..<chunkCount {
                    let value = SIMD4(repeating: channels[layout.channelOfChunk[chunk]])
                    sums[chunk] += value * fxLanes[row + chunk] * fyRow[chunk]
                }
                index += 4
            }
        }
        return sums
    }

    /// Quantises the coefficients and lays out the bytes, OR-ing unmasked values the way the reference
    /// does before its `Uint8Array` store truncates them.
    private static func pack(
        _ sums: LaneLayout.PerChunk<SIMD4<Double>>, pixelCount: Int, layout: LaneLayout,
        hasAlpha: Bool, isLandscape: Bool, lx: Int, ly: Int
    ) -> [UInt8] {
        func coefficient(_ channel: Int, _ index: Int) -> Double {
            let lane = layout.lane(channel: channel, index: index)
            return sums[lane / 4][lane % 4] / Double(pixelCount)
        }
        var dc = InlineArray<4, Double>(repeating: 0)
        var scale = InlineArray<4, Double>(repeating: 0)
        for channel in 0..<layout.channelCount {
            dc[channel] = coefficient(channel, 0)
            for index in 1..<layout.coefficientCount[channel] {
                scale[channel] = max(scale[channel], abs(coefficient(channel, index)))
            }
        }
        let header24 = javaScriptRound(63 * dc[0])
            | javaScriptRound(31.5 + 31.5 * dc[1]) << 6
            | javaScriptRound(31.5 + 31.5 * dc[2]) << 12
            | javaScriptRound(31 * scale[0]) << 18
            | (hasAlpha ? 1 : 0) << 23
        let header16 = (isLandscape ? ly : lx)
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
        for channel in 0..<layout.channelCount {
            for index in 1..<layout.coefficientCount[channel] {
                var value = coefficient(channel, index)
                if scale[channel] != 0 {
                    value = 0.5 + 0.5 / scale[channel] * value
                }
                words[acStart + (nibble >> 1)] |= javaScriptRound(15 * value) << ((nibble & 1) << 2)
                nibble += 1
            }
        }
        return (0..<acStart + (nibble + 1) / 2).map { UInt8(truncatingIfNeeded: words[$0]) }
    }
}
