/// Where each DCT coefficient sits among the encoder's six 8-lane accumulators ("chunks").
///
/// The plan is fixed so that the encoder's per-pixel work is straight-line code: luminance takes chunks 0–3
/// (7x7 at most, 28 coefficients), or only 0–1 when the image has alpha (5x5 at most, 15 coefficients) and
/// alpha takes 2–3; P and Q take chunks 4 and 5 (3x3, 6 coefficients each). Lanes no coefficient uses get
/// zero factors and stay zero.
struct LaneLayout: Sendable {
    typealias PerChunk<Element> = InlineArray<6, Element>
    typealias PerLane<Element> = InlineArray<48, Element>

    /// Channels in the order the hash stores them.
    enum Channel: Int, CaseIterable {
        case l, p, q, a

        var firstLane: Int {
            switch self {
            case .l: 0
            case .p: 32
            case .q: 40
            case .a: 16
            }
        }
    }

    /// The coefficient's `cx` and `cy` for each lane, or -1 where no coefficient sits.
    private(set) var cx: PerLane<Int> = .init(repeating: -1)
    private(set) var cy: PerLane<Int> = .init(repeating: -1)
    /// Coefficients of each channel, DC included; zero for alpha in an opaque image.
    private(set) var coefficientCount: InlineArray<4, Int> = .init(repeating: 0)
    /// How many basis functions each axis needs: the largest `cx` (`cy`) in use, plus one.
    private(set) var componentsX = 0
    private(set) var componentsY = 0
    let hasAlpha: Bool

    /// `lx` and `ly` are the luminance component counts (each at least 3).
    init(lx: Int, ly: Int, hasAlpha: Bool) {
        self.hasAlpha = hasAlpha
        place(.l, nx: lx, ny: ly)
        place(.p, nx: 3, ny: 3)
        place(.q, nx: 3, ny: 3)
        if hasAlpha {
            place(.a, nx: 5, ny: 5)
        }
    }

    private mutating func place(_ channel: Channel, nx: Int, ny: Int) {
        var lane = channel.firstLane
        for (cx, cy) in CoefficientTriangle(nx: nx, ny: ny) {
            self.cx[lane] = cx
            self.cy[lane] = cy
            componentsX = max(componentsX, cx + 1)
            componentsY = max(componentsY, cy + 1)
            lane += 1
        }
        coefficientCount[channel.rawValue] = lane - channel.firstLane
    }
}
