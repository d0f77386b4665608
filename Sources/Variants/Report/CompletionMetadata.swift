/// What the storage layer records for an object once it is processed, with its field names.
///
/// A non-picture carries only `contentType`, `size` and `checksumSha256`; picture fields are absent, not null.
public struct CompletionMetadata: Sendable, Codable, Equatable {
    public var bucket: String
    public var path: String
    public var size: Int
    public var contentType: String
    public var checksumSha256: String
    /// Displayed size, after EXIF orientation or HEIF irot/imir/clap, or a video's display matrix.
    public var width: Int?
    public var height: Int?
    public var hasAlpha: Bool?
    /// An animated GIF or WebP: how many frames, and how long they last together in milliseconds. A video:
    /// how long it lasts in seconds.
    public var frames: Int?
    public var duration: Double?
    /// A video: the codec of the stream its poster frame comes from (`h264`, `hevc`, `vp9`, `av1`).
    public var codec: String?
    /// `"ignored"` when the picture embeds a colour profile that cannot be used: it is rendered as sRGB.
    public var colourProfile: String?
    /// `"pq"` or `"hlg"` when the picture or video is HDR (its transfer PQ or HLG): its renditions are
    /// tone-mapped to SDR.
    public var toneMapped: String?
    /// Base64 ThumbHash placeholder.
    public var thumbhash: String?
    /// `#rrggbb`: the colour most of the picture is, from the ThumbHash's rendition (`DominantColour`).
    public var dominantColour: String?
    /// Variant name → the path the storage API hands to clients: `/v1/files/<bucket>/<path>?variant=<name>`.
    public var variants: [String: String]?
    /// Variant name → the rendition written for it.
    public var renditions: [String: Rendition]?

    public init(
        bucket: String, path: String, size: Int, contentType: String, checksumSha256: String,
        width: Int? = nil,
        height: Int? = nil, hasAlpha: Bool? = nil, thumbhash: String? = nil
    ) {
        self.bucket = bucket
        self.path = path
        self.size = size
        self.contentType = contentType
        self.checksumSha256 = checksumSha256
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.thumbhash = thumbhash
    }
}
