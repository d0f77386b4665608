/// Which part of a picture `cover` keeps when it crops: a compass gravity or a content strategy.
public enum Position: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case centre
    case north
    case northeast
    case east
    case southeast
    case south
    case southwest
    case west
    case northwest
    /// Keep the region with the most detail (libvips' `VIPS_INTERESTING_ENTROPY`).
    case entropy
    /// Keep the region most likely to draw the eye: skin tones, saturation, edges
    /// (`VIPS_INTERESTING_ATTENTION`).
    case attention

    /// Other spellings the declaration accepts; the American one is what sharp users will type.
    static let aliases: [String: Position] = ["center": .centre]
}
