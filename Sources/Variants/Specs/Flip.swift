/// A mirror applied after EXIF orientation and `rotate`: `h` left to right, `v` top to bottom, `hv` both.
public enum Flip: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case h
    case v
    case hv

    /// Both mirrors in either order are the same picture.
    static let aliases: [String: Flip] = ["vh": .hv]
}

extension Rotation {
    /// This rotation followed by `flip`, as one of the eight orientations a picture can take: a quarter turn
    /// and at most a left-to-right mirror after it. A top-to-bottom mirror is a half turn and a left-to-right
    /// one, both mirrors a half turn, so equal results are one rendition and are rendered by the same steps.
    func followed(by flip: Flip?) -> (rotation: Rotation, mirrored: Bool) {
        switch flip {
        case nil: (self, false)
        case .h: (self, true)
        case .v: (halfTurned, true)
        case .hv: (halfTurned, false)
        }
    }

    private var halfTurned: Rotation {
        Rotation(rawValue: (rawValue + 180) % 360) ?? self
    }
}
