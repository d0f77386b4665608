/// A clockwise rotation by a quarter turn multiple, applied after EXIF orientation and before resizing.
///
/// Declared in degrees; any multiple of 90 in -360…360 is normalised here (`-90` is `d270`). Named after
/// libvips' `VipsAngle`, to which the backend maps it one to one.
public enum Rotation: Int, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case d0 = 0
    case d90 = 90
    case d180 = 180
    case d270 = 270

    /// Whether the rotation exchanges width and height.
    public var swapsSides: Bool { self == .d90 || self == .d270 }
}
