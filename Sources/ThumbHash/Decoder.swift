/// The reference decoder (`thumbHashToRGBA`), bit for bit.
///
/// Four neighbouring pixels of a row are computed together in SIMD lanes; each lane repeats the
/// reference's per-pixel sums term by term, so the result does not depend on the vector width.
enum Decoder {
    /// The decoded image is at most 32 pixels on a side: 8 groups of 4 pixels.
    private static let maxGroups = 8
    private static let maxComponents = 7

    static func decode(_ hash: [UInt8], header: HashHeader) -> ThumbHash.Image {
        let lTerms = Terms(nx: header.lx, ny: header.ly)
        let pqTerms = Terms(nx: 3, ny: 3)
        let aTerms = Terms(nx: 5, ny: 5)
        var nibble = 0
        func read(_ terms: Terms, scale: Double) -> Terms.Values {
            var values = Terms.Values(repeating: 0)
            for index in 0..<terms.count {
                let byte = hash[header.acStart + (nibble >> 1)] >> ((nibble & 1) << 2)
                values[index] = (Double(byte & 15) / 7.5 - 1) * scale
                nibble += 1
            }
            return values
        }
        // Saturation is boosted by 1.25 to make up for quantisation, as the reference does.
        let lValues = read(lTerms, scale: header.lScale)
        let pValues = read(pqTerms, scale: header.pScale * 1.25)
        let qValues = read(pqTerms, scale: header.qScale * 1.25)
        let aValues = header.hasAlpha ? read(aTerms, scale: header.aScale) : Terms.Values(repeating: 0)
        // Spans, because subscripting a `let` InlineArray copies all of it first (Swift 6.3).
        let (lAC, pAC, qAC, aAC) = (lValues.span, pValues.span, qValues.span, aValues.span)
        let (lCX, lCY) = (lTerms.cx.span, lTerms.cy.span)
        let (pqCX, pqCY) = (pqTerms.cx.span, pqTerms.cy.span)
        let (aCX, aCY) = (aTerms.cx.span, aTerms.cy.span)

        let ratio = Double(header.storedLX) / Double(header.storedLY)
        let width = javaScriptRound(ratio > 1 ? 32 : 32 * ratio)
        let height = javaScriptRound(ratio > 1 ? 32 / ratio : 32)
        let groups = (width + 3) / 4
        let componentsX = max(header.lx, header.hasAlpha ? 5 : 3)
        let componentsY = max(header.ly, header.hasAlpha ? 5 : 3)

        var fx = InlineArray<56, SIMD4<Double>>(repeating: .zero)
        for component in 0..<componentsX {
            for x in 0..<width {
                fx[component * maxGroups + x / 4][x % 4] =
                    DCTBasis.decoder(size: width, component: component, index: x)
            }
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var fy2 = InlineArray<7, Double>(repeating: 0)
        for y in 0..<height {
            for component in 0..<componentsY {
                fy2[component] = DCTBasis.decoder(size: height, component: component, index: y) * 2
            }
            for group in 0..<groups {
                var l = SIMD4(repeating: header.lDC)
                for term in 0..<lTerms.count {
                    l += lAC[term] * fx[lCX[term] * maxGroups + group] * fy2[lCY[term]]
                }
                var p = SIMD4(repeating: header.pDC)
                var q = SIMD4(repeating: header.qDC)
                for term in 0..<pqTerms.count {
                    let f = fx[pqCX[term] * maxGroups + group] * fy2[pqCY[term]]
                    p += pAC[term] * f
                    q += qAC[term] * f
                }
                var a = SIMD4(repeating: header.aDC)
                if header.hasAlpha {
                    for term in 0..<aTerms.count {
                        a += aAC[term] * fx[aCX[term] * maxGroups + group] * fy2[aCY[term]]
                    }
                }
                let b = l - 2.0 / 3.0 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                var index = (y * width + group * 4) * 4
                for lane in 0..<min(4, width - group * 4) {
                    rgba[index] = byte(r[lane])
                    rgba[index + 1] = byte(g[lane])
                    rgba[index + 2] = byte(b[lane])
                    rgba[index + 3] = byte(a[lane])
                    index += 4
                }
            }
        }
        return ThumbHash.Image(width: width, height: height, rgba: rgba)
    }

    /// `max(0, 255 * min(1, v))` stored into a `Uint8Array`, which truncates.
    private static func byte(_ value: Double) -> UInt8 {
        let scaled = 255 * (value < 1 ? value : 1)
        return scaled > 0 ? UInt8(scaled) : 0
    }

    /// A channel's AC terms (the triangle without its DC term) as flat `cx`/`cy` lists.
    private struct Terms {
        /// Room for the largest channel, 7x7 luminance: 28 coefficients less the DC term.
        typealias Values = InlineArray<27, Double>
        var cx = InlineArray<27, Int>(repeating: 0)
        var cy = InlineArray<27, Int>(repeating: 0)
        var count = 0

        init(nx: Int, ny: Int) {
            for (cx, cy) in CoefficientTriangle(nx: nx, ny: ny).dropFirst() {
                self.cx[count] = cx
                self.cy[count] = cy
                count += 1
            }
        }
    }
}
