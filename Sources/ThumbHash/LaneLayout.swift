/// Where each DCT coefficient of each channel sits among the encoder's SIMD accumulators.
///
/// Channels are packed one after another, each starting on a fresh 4-lane chunk so that a chunk belongs
/// to one channel; lanes past a channel's last coefficient get zero factors and stay zero.
struct LaneLayout: Sendable {
    /// One value per chunk: 12 chunks hold luminance up to 7x7 (28 coefficients, 7 chunks) with P and Q
    /// (6 coefficients, 2 chunks each), or 5x5 luminance, P, Q and 5x5 alpha (4 + 2 + 2 + 4 chunks).
    typealias PerChunk<Element> = InlineArray<12, Element>
    typealias PerLane<Element> = InlineArray<48, Element>

    /// Channel `c` owns chunks `firstChunk[c] ..< firstChunk[c + 1]`.
    private(set) var firstChunk: InlineArray<5, Int> = .init(repeating: 0)
    /// Coefficients of channel `c`, DC included.
    private(set) var coefficientCount: InlineArray<4, Int> = .init(repeating: 0)
    /// The coefficient's `cx` and `cy` for each lane, or -1 for padding.
    private(set) var cx: PerLane<Int> = .init(repeating: -1)
    private(set) var cy: PerLane<Int> = .init(repeating: -1)
    /// The channel each chunk belongs to (0 L, 1 P, 2 Q, 3 A).
    private(set) var channelOfChunk: PerChunk<Int> = .init(repeating: 0)
    let channelCount: Int
    /// How many basis functions each axis needs: the largest `cx` (`cy`) in use, plus one.
    private(set) var componentsX = 0
    private(set) var componentsY = 0

    var chunkCount: Int { firstChunk[channelCount] }

    /// `triangles` holds `(nx, ny)` per channel, in the order the hash stores them.
    init(_ triangles: InlineArray<4, (nx: Int, ny: Int)>, channelCount: Int) {
        self.channelCount = channelCount
        var chunk = 0
        for channel in 0..<channelCount {
            firstChunk[channel] = chunk
            var lane = chunk * 4
            for (cx, cy) in CoefficientTriangle(nx: triangles[channel].nx, ny: triangles[channel].ny) {
                self.cx[lane] = cx
                self.cy[lane] = cy
                componentsX = max(componentsX, cx + 1)
                componentsY = max(componentsY, cy + 1)
                lane += 1
            }
            coefficientCount[channel] = lane - chunk * 4
            let end = (lane + 3) / 4
            while chunk < end {
                channelOfChunk[chunk] = channel
                chunk += 1
            }
        }
        firstChunk[channelCount] = chunk
    }

    /// One chunk's factors along x, `basis(cx)` per lane, zero in padding lanes.
    func xFactors(chunk: Int, _ basis: (Int) -> Double) -> SIMD4<Double> {
        factors(cx, chunk: chunk, basis)
    }

    /// One chunk's factors along y, `basis(cy)` per lane, zero in padding lanes.
    func yFactors(chunk: Int, _ basis: (Int) -> Double) -> SIMD4<Double> {
        factors(cy, chunk: chunk, basis)
    }

    private func factors(
        _ components: PerLane<Int>, chunk: Int, _ basis: (Int) -> Double
    ) -> SIMD4<Double> {
        var result = SIMD4<Double>.zero
        for offset in 0..<4 where components[chunk * 4 + offset] >= 0 {
            result[offset] = basis(components[chunk * 4 + offset])
        }
        return result
    }

    /// The lane of coefficient `index` of `channel`.
    func lane(channel: Int, index: Int) -> Int {
        firstChunk[channel] * 4 + index
    }
}
