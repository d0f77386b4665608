extension OutputFormat {
    /// The extension renditions in this format are stored under.
    var fileExtension: String {
        switch self {
        case .jpeg, .original: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .avif: "avif"
        }
    }

    /// The format `original` keeps for a source of this type, or nil where we cannot encode it (HEIC, GIF).
    init?(keeping type: MediaType) {
        switch type {
        case .jpeg: self = .jpeg
        case .png: self = .png
        case .webp: self = .webp
        case .avif: self = .avif
        default: return nil
        }
    }
}
