/// An 8-bit sRGB picture, row by row, as the metric reads it.
///
/// Alpha, when present, is straight (not premultiplied). The score treats it as the reference tool does: each
/// picture that has alpha is blended over a flat grey in sRGB values before linearisation; when the original has
/// alpha, it is scored over a dark (0.1) and a bright (0.9) grey and the lower score counts, so a change that
/// shows on either background is caught; a distorted picture with alpha beside an opaque original is blended
/// over middle grey (0.5).
public struct SRGBPicture: Sendable {
    /// How a pixel's bytes are laid out.
    public enum Layout: Int, Sendable {
        case rgb = 3
        case rgba = 4
    }

    public let width: Int
    public let height: Int
    public let layout: Layout
    public let pixels: [UInt8]

    /// Checks that the buffer holds exactly the pixels its size says and that the picture is at least 8 × 8.
    public init(width: Int, height: Int, layout: Layout, pixels: [UInt8]) throws(SSIMULACRA2Error) {
        guard width >= 8, height >= 8 else { throw .tooSmall(width: width, height: height) }
        let expected = width * height * layout.rawValue
        guard pixels.count == expected else { throw .bufferSize(expected: expected, got: pixels.count) }
        self.width = width
        self.height = height
        self.layout = layout
        self.pixels = pixels
    }

    var hasAlpha: Bool { layout == .rgba }
}
