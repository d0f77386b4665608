/// The loaders we call by name; the generic "load anything" entry is never used on user bytes. They are
/// also the allow-list: every other loader libvips has is blocked.
enum VipsLoader: Sendable, CaseIterable {
    case jpeg, png, webp, gif
    /// libtiff, the first page or directory.
    case tiff
    /// librsvg, with its limits on (never libvips' `unlimited`).
    case svg
    /// libjxl.
    case jxl

    /// The abstract libvips class whose file, buffer and source loaders we allow.
    var family: String {
        switch self {
        case .jpeg: "VipsForeignLoadJpeg"
        case .png: "VipsForeignLoadPng"
        case .webp: "VipsForeignLoadWebp"
        case .gif: "VipsForeignLoadNsgif"
        case .tiff: "VipsForeignLoadTiff"
        case .svg: "VipsForeignLoadSvg"
        case .jxl: "VipsForeignLoadJxl"
        }
    }

    /// How the loader decodes a smaller picture than it holds, so a large one never exists at full size; nil
    /// where it decodes the whole and the picture is reduced after.
    var reduction: Reduction? {
        switch self {
        case .jpeg: .shrink
        case .webp, .svg: .scale
        case .png, .gif, .tiff, .jxl: nil
        }
    }

    enum Reduction: Sendable {
        /// By 2, 4 or 8, from the DCT coefficients.
        case shrink
        /// By any factor.
        case scale
    }
}
