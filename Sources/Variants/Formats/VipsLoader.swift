/// The loaders we call by name; the generic "load anything" entry is never used on user bytes. They are
/// also the allow-list: every other loader libvips has is blocked.
enum VipsLoader: Sendable, CaseIterable {
    case jpeg, png, webp, gif
    /// libtiff, the first page or directory.
    case tiff
    /// librsvg, with its limits on (never libvips' `unlimited`).
    case svg
    /// poppler, the first page.
    case pdf
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
        case .pdf: "VipsForeignLoadPdf"
        case .jxl: "VipsForeignLoadJxl"
        }
    }

    /// How the loader decodes a smaller picture than it holds, so a large one never exists at full size; nil
    /// where it decodes the whole and the picture is reduced after.
    var reduction: Reduction? {
        switch self {
        case .jpeg: .shrink
        case .webp, .svg, .pdf: .scale
        case .png, .gif, .tiff, .jxl: nil
        }
    }

    /// What a drawing's size is measured at, as a factor on the size it declares: a PDF page is rendered at
    /// 144 dpi, twice its size in points, so a page is as sharp as a photo of the same size; an SVG at 96
    /// dpi, its own CSS pixels. Its renditions are then drawn at their own size, never enlarged from a small
    /// render.
    var nominalScale: Double {
        self == .pdf ? 2 : 1
    }

    enum Reduction: Sendable {
        /// By 2, 4 or 8, from the DCT coefficients.
        case shrink
        /// By any factor.
        case scale
    }
}
