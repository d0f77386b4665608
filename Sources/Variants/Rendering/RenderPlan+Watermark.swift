extension RenderPlan {
    /// Where a watermark goes on the output, in output pixels, and how strongly.
    public struct Overlay: Sendable, Equatable {
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
        public let opacity: Double
    }

    /// The watermark `width` × the output's width wide, its height by its own aspect ratio, shrunk to fit
    /// inside the margins (at least 1 pixel), then set against the edges its position names, `margin` pixels
    /// in; centred across an axis it names no edge of.
    static func overlay(_ watermark: Watermark, outputWidth: Int, outputHeight: Int) -> Overlay {
        let margin = watermark.margin
        var width = max(1, Int((Double(outputWidth) * watermark.width).rounded()))
        var height = max(
            1, Int((Double(width) * Double(watermark.pixelHeight) / Double(watermark.pixelWidth)).rounded()))
        let room = (width: max(1, outputWidth - 2 * margin), height: max(1, outputHeight - 2 * margin))
        if width > room.width || height > room.height {
            let shrink = min(Double(room.width) / Double(width), Double(room.height) / Double(height))
            width = max(1, Int((Double(width) * shrink).rounded(.down)))
            height = max(1, Int((Double(height) * shrink).rounded(.down)))
        }
        func offset(_ edge: Edge, size: Int, of total: Int) -> Int {
            let offset =
                switch edge {
                case .start: margin
                case .middle: (total - size) / 2
                case .end: total - size - margin
                }
            return min(max(0, offset), max(0, total - size))
        }
        let (horizontal, vertical) = edges(of: watermark.position)
        return Overlay(
            x: offset(horizontal, size: width, of: outputWidth),
            y: offset(vertical, size: height, of: outputHeight),
            width: width, height: height, opacity: watermark.opacity)
    }

    private enum Edge { case start, middle, end }

    private static func edges(of position: Position) -> (horizontal: Edge, vertical: Edge) {
        switch position {
        case .north: (.middle, .start)
        case .northeast: (.end, .start)
        case .east: (.end, .middle)
        case .southeast: (.end, .end)
        case .south: (.middle, .end)
        case .southwest: (.start, .end)
        case .west: (.start, .middle)
        case .northwest: (.start, .start)
        case .centre, .entropy, .attention: (.middle, .middle)
        }
    }
}
