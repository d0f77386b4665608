/// The point of the displayed source (after EXIF orientation) a `cover` crop keeps as near its centre as the
/// crop allows, as fractions of the width and height from the top left: `0.5,0.5` is the centre. Declared
/// `"focus": [x, y]` or `"x,y"` (`?focus=0.3,0.2`).
public struct FocalPoint: Sendable, Equatable, Hashable {
    /// 0…1 from the left edge.
    public let x: Double
    /// 0…1 from the top edge.
    public let y: Double

    init(x: Double, y: Double) {
        precondition((0...1).contains(x) && (0...1).contains(y), "a focal point is inside the picture")
        self.x = x
        self.y = y
    }

    /// As the canonical variant JSON and a decoder child's job line write it: `[x,y]`.
    var json: String {
        "[" + VariantSpec.canonicalNumber(x) + "," + VariantSpec.canonicalNumber(y) + "]"
    }

    /// The same point once the picture is turned by `rotation` (clockwise) and then mirrored left to right
    /// when `mirrored`: the point follows the picture.
    func following(_ rotation: Rotation, mirrored: Bool) -> FocalPoint {
        let turned: (x: Double, y: Double) =
            switch rotation {
            case .d0: (x, y)
            case .d90: (1 - y, x)
            case .d180: (1 - x, 1 - y)
            case .d270: (y, 1 - x)
            }
        return FocalPoint(x: mirrored ? 1 - turned.x : turned.x, y: turned.y)
    }
}
