/// A ThumbHash: a compact (5–25 byte) placeholder of an image, in Evan Wallace's format.
///
/// Encoding and decoding reproduce the JavaScript reference bit for bit (double precision, fdlibm's
/// cosine, JavaScript rounding), so a hash made here equals the one a browser or Node makes from the
/// same pixels. A value always holds a well-formed hash: the initialisers check the length against the
/// header, and every reader relies on that.
public struct ThumbHash: Sendable, Hashable {
    /// The hash as stored and transmitted.
    public let bytes: [UInt8]
    private let header: HashHeader

    /// Reads a hash, checking that its length matches what its header describes.
    public init(bytes: [UInt8]) throws(ThumbHashError) {
        header = try HashHeader(bytes)
        self.bytes = bytes
    }

    /// Reads a hash from standard base64, padded or not.
    public init(base64: String) throws(ThumbHashError) {
        try self.init(bytes: Base64.decode(base64))
    }

    /// The hash in standard, padded base64.
    public var base64: String {
        Base64.encode(bytes)
    }

    /// Encodes straight (not premultiplied) RGBA8 pixels, row by row, of an image 1...100 pixels a side.
    public static func encode(
        width: Int, height: Int, rgba: Span<UInt8>
    ) throws(ThumbHashError) -> ThumbHash {
        try ThumbHash(bytes: Encoder.encode(width: width, height: height, rgba: rgba))
    }

    /// Encodes straight (not premultiplied) RGBA8 pixels, row by row, of an image 1...100 pixels a side.
    public static func encode(width: Int, height: Int, rgba: [UInt8]) throws(ThumbHashError) -> ThumbHash {
        try encode(width: width, height: height, rgba: rgba.span)
    }

    /// Renders the placeholder at the format's own size (32 pixels on the longer side).
    public func decode() -> Image {
        Decoder.decode(bytes, header: header)
    }

    /// Whether the image had any transparency.
    public var hasAlpha: Bool {
        header.hasAlpha
    }

    /// Width over height, as far as the hash records it (from the luminance component counts).
    public var approximateAspectRatio: Double {
        Double(header.storedLX) / Double(header.storedLY)
    }

    /// The average colour, which the header stores directly.
    public var averageColor: AverageColor {
        AverageColor(header)
    }
}
