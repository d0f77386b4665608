/// Why an image could not be encoded or a hash could not be read.
///
/// Every rejection the module makes is one of these values, so callers can match on the cause instead
/// of parsing text; nothing in the module traps on bad input.
public enum ThumbHashError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Width or height outside 1...100: the format is defined for small thumbnails only.
    case dimensionsOutOfRange(width: Int, height: Int)
    /// The pixel buffer does not hold exactly `width * height * 4` bytes.
    case pixelBufferLength(expected: Int, actual: Int)
    /// The hash is shorter or longer than its header says; `expected` is the header's own length when
    /// even the header is incomplete.
    case hashLength(expected: Int, actual: Int)
    /// The header gives a luminance component count of zero, which no encoder writes and which would
    /// decode to an empty image.
    case zeroComponentCount
    /// The text is not standard base64.
    case invalidBase64

    /// A stable snake_case name for logs and machine-readable output.
    public var code: String {
        switch self {
        case .dimensionsOutOfRange: "dimensions_out_of_range"
        case .pixelBufferLength: "pixel_buffer_length"
        case .hashLength: "hash_length"
        case .zeroComponentCount: "zero_component_count"
        case .invalidBase64: "invalid_base64"
        }
    }

    public var description: String {
        switch self {
        case .dimensionsOutOfRange(let width, let height):
            "\(width)x\(height) is outside 1...100 on a side"
        case .pixelBufferLength(let expected, let actual):
            "pixel buffer holds \(actual) bytes, expected \(expected)"
        case .hashLength(let expected, let actual):
            "hash holds \(actual) bytes, its header needs \(expected)"
        case .zeroComponentCount:
            "hash header gives zero luminance components"
        case .invalidBase64:
            "text is not standard base64"
        }
    }
}
