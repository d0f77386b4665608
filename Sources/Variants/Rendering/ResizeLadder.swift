/// The reductions made so far from an object's one decode. Each later rendition, and the ThumbHash, is
/// resampled from the smallest of them still at least as large as it needs, so a 200-pixel thumbnail does
/// not resample the whole decode again: libvips 8.14's Lanczos reduce costs per source pixel.
///
/// Every rung has the decode's orientation and aspect ratio (no rotation, no `fill` stretch), so a rung
/// large enough on both sides serves any later size.
struct ResizeLadder {
    private var rungs: [VipsImage]

    init(base: VipsImage) {
        rungs = [base]
    }

    /// The decode itself, the largest rung.
    var base: VipsImage { rungs[0] }

    /// The smallest rung at least `width` × `height`; the decode itself when none is smaller.
    func source(width: Int, height: Int) -> VipsImage {
        rungs.filter { $0.width >= width && $0.height >= height }.min { $0.width < $1.width } ?? rungs[0]
    }

    mutating func add(_ image: VipsImage) {
        rungs.append(image)
    }
}
