/// The loaders we call by name; the generic "load anything" entry is never used on user bytes. They are
/// also the allow-list: every other loader libvips has is blocked.
enum VipsLoader: Sendable, CaseIterable {
    case jpeg, png, webp, gif

    /// The abstract libvips class whose file, buffer and source loaders we allow.
    var family: String {
        switch self {
        case .jpeg: "VipsForeignLoadJpeg"
        case .png: "VipsForeignLoadPng"
        case .webp: "VipsForeignLoadWebp"
        case .gif: "VipsForeignLoadNsgif"
        }
    }
}
