extension ThumbHash {
    /// The image's average colour, each component in 0...1 (RGB not premultiplied by alpha).
    public struct AverageColor: Sendable, Hashable {
        public let red: Double
        public let green: Double
        public let blue: Double
        public let alpha: Double

        /// Converts the header's LPQ average back to RGB the way the reference does, clamping to 0...1.
        init(_ header: HashHeader) {
            let b = header.lDC - 2.0 / 3.0 * header.pDC
            let r = (3 * header.lDC - b + header.qDC) / 2
            let g = r - header.qDC
            red = Self.clamp(r)
            green = Self.clamp(g)
            blue = Self.clamp(b)
            alpha = header.aDC
        }

        /// JavaScript's `max(0, min(1, v))`, which turns -0 into +0.
        private static func clamp(_ value: Double) -> Double {
            value > 0 ? (value < 1 ? value : 1) : 0
        }
    }
}
