/// What a picture's header says, read before any pixel is decoded.
public struct PictureHeader: Sendable, Equatable, Codable {
    /// Stored size, before orientation.
    public var storedWidth: Int
    public var storedHeight: Int
    /// EXIF orientation 1–8 for JPEG, PNG and WebP; for HEIF 1, libheif applying irot/imir itself, but for an
    /// overlay we compose (`HEIFOverlay`), whose irot/imir become this orientation.
    public var orientation: Int
    public var hasAlpha: Bool
    public var bitDepth: Int
    public var frames: Int
    /// Milliseconds an animation's frames last together, each as it shows (see
    /// `DecodedPicture.Animation.shownDelays`); 0 for a still picture.
    public var duration: Int = 0
    /// Progressive JPEG or interlaced PNG: far more memory to decode at a given size.
    public var progressive: Bool

    /// Orientations 5–8 turn the picture a quarter, swapping its sides.
    public var displayedWidth: Int { orientation >= 5 ? storedHeight : storedWidth }
    public var displayedHeight: Int { orientation >= 5 ? storedWidth : storedHeight }
}
