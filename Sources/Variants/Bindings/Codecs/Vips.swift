internal import CVipsShims
internal import Glibc

/// The one door to libvips: runtime start-up, the image owner, and every operation the pipeline uses.
enum Vips {
    /// Starts libvips with the cache off and sets its worker-thread count. The first call also blocks every
    /// loader but ours and proves the block holds; its outcome stands for the life of the process.
    static func start(concurrency: Int = 1) throws(BackendError) {
        try started.get()
        try call("init") { vv_init("variantd", Int32(concurrency), &$0) }
    }

    private static let started = Result { () throws(BackendError) in
        Allocator.keepPictureBuffers()
        try call("init") { vv_init("variantd", 0, &$0) }
        applyLoaderAllowList()
        try LoaderSelfCheck.run()
    }

    /// Untrusted operations and every loader are blocked, then the families we call by name reopened: a
    /// loader that is trusted but unneeded (libvips' own `.v` format, say) stays blocked too.
    private static func applyLoaderAllowList() {
        vv_block_untrusted(1)
        vv_block_operation("VipsForeignLoad", 1)
        for loader in VipsLoader.allCases {
            vv_block_operation(loader.family, 0)
        }
    }

    static var version: String { String(cString: vv_version()) }

    /// librsvg, poppler, libtiff and libjxl, which libvips' SVG, PDF, TIFF and JPEG XL loaders run on, with
    /// their versions.
    static var loaderLibraries: [(name: String, version: String)] {
        [
            ("librsvg", VV_LIBRARY_RSVG), ("poppler", VV_LIBRARY_POPPLER), ("libtiff", VV_LIBRARY_TIFF),
            ("libjxl", VV_LIBRARY_JXL),
        ].map { ($0.0, String(cString: vv_loader_library_version($0.1))) }
    }

    /// The libvips version of the headers we were compiled against.
    static var headerVersion: String { String(cString: vv_header_version()) }

    /// The file the running libvips was loaded from, to show it is the one setup built.
    static var libraryPath: String { String(cString: vv_library_path()) }

    /// Every concrete loader class this libvips was built with, and whether it is blocked.
    static var loaders: [VipsLoaderClass] {
        var classes = [vv_loader_class](repeating: vv_loader_class(), count: 128)
        var count = vv_list_loaders(&classes, classes.count)
        if count > classes.count {
            classes = [vv_loader_class](repeating: vv_loader_class(), count: count)
            count = vv_list_loaders(&classes, classes.count)
        }
        return classes.prefix(min(count, classes.count)).map {
            VipsLoaderClass(
                name: String(cString: $0.name), family: String(cString: $0.family), blocked: $0.blocked != 0)
        }
    }

    /// Whether libvips' generic loader opens these bytes; the start-up self-check uses it on bytes we make,
    /// to prove that blocked formats stay blocked.
    static func genericLoaderOpens(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { vv_generic_loader_opens($0.baseAddress, $0.count) != 0 }
    }

    /// Runs one shim call and turns its failure into a `BackendError` named after the call.
    fileprivate static func call(_ name: String, _ body: (inout vv_error) -> Int32) throws(BackendError) {
        var error = vv_error()
        guard body(&error) == 0 else {
            throw BackendError(call: name, message: CCopy.text(ofField: error.message))
        }
    }

    fileprivate static func image(_ name: String, _ body: (inout OpaquePointer?, inout vv_error) -> Int32)
        throws(BackendError) -> VipsImage
    {
        var out: OpaquePointer?
        try call(name) { body(&out, &$0) }
        guard let out else { throw BackendError(call: name, message: "no image returned") }
        return VipsImage(out)
    }
}

/// One concrete loader of the running libvips (`VipsForeignLoadJpegBuffer` of the family
/// `VipsForeignLoadJpeg`) and whether it is blocked.
struct VipsLoaderClass: Sendable, Equatable {
    var name: String
    var family: String
    var blocked: Bool
}

/// What a libvips header says, before any pixel is decoded.
struct VipsHeader: Sendable, Equatable {
    var width: Int
    var height: Int
    var bands: Int
    var bitsPerSample: Int
    var orientation: Int
    var hasAlpha: Bool
    var pages: Int
    var interlaced: Bool
    var hasICCProfile: Bool
    var isCMYK: Bool
}

/// Owns one libvips image reference; each operation returns a new owner, so a released image cannot be
/// used by mistake. Lives inside one synchronous job and never crosses tasks.
final class VipsImage {
    private let pointer: OpaquePointer

    fileprivate init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        vv_unref(pointer)
    }

    /// Opens bytes with one named loader: header only until pixels are needed.
    ///
    /// - Parameters:
    ///   - shrink: JPEG shrink-on-load, 1, 2, 4 or 8.
    ///   - scale: WebP scale-on-load, in (0, 1]; SVG and PDF: the factor on the loader's nominal size
    ///     (`VipsLoader.nominalScale`) they are drawn at.
    ///   - strict: fail on truncation and decoder errors instead of filling the gap with grey.
    ///   - allFrames: GIF and WebP: every frame, stacked top to bottom (see `animation`).
    static func load(
        _ loader: VipsLoader, bytes: [UInt8], shrink: Int = 1, scale: Double = 1, strict: Bool = true,
        allFrames: Bool = false
    ) throws(BackendError) -> VipsImage {
        let kind: vv_loader =
            switch loader {
            case .jpeg: VV_LOADER_JPEG
            case .png: VV_LOADER_PNG
            case .webp: VV_LOADER_WEBP
            case .gif: VV_LOADER_GIF
            case .tiff: VV_LOADER_TIFF
            case .svg: VV_LOADER_SVG
            case .pdf: VV_LOADER_PDF
            case .jxl: VV_LOADER_JXL
            }
        var options = vv_load_options(
            shrink: Int32(shrink), scale: scale * loader.nominalScale, fail_on: strict ? 2 : 0,
            sequential: allFrames ? 0 : 1,
            pages: allFrames ? -1 : 1)
        return try bytes.withUnsafeBytes { buffer in
            Result { () throws(BackendError) in
                try Vips.image("load") { out, error in
                    vv_load(kind, buffer.baseAddress, buffer.count, &options, &out, &error)
                }
            }
        }.get()
    }

    /// Wraps decoded pixels owned elsewhere; `release(owner)` runs when the image closes, or now on failure.
    static func adopting(
        pixels: UnsafeMutableRawPointer, width: Int, height: Int, bands: Int,
        release: @convention(c) (UnsafeMutableRawPointer?) -> Void, owner: UnsafeMutableRawPointer
    ) throws(BackendError) -> VipsImage {
        do {
            return try Vips.image("new_from_pixels") { out, error in
                vv_image_new_from_pixels(
                    pixels, Int32(width), Int32(height), Int32(bands), release, owner, &out, &error)
            }
        } catch {
            release(owner)
            throw error
        }
    }

    var header: VipsHeader {
        var info = vv_image_info()
        vv_image_get_info(pointer, &info)
        return VipsHeader(
            width: Int(info.width), height: Int(info.height), bands: Int(info.bands),
            bitsPerSample: Int(info.bits), orientation: Int(info.orientation), hasAlpha: info.has_alpha != 0,
            pages: Int(info.pages), interlaced: info.interlaced != 0, hasICCProfile: info.has_icc != 0,
            isCMYK: info.is_cmyk != 0)
    }

    /// For an image loaded with all its frames: one frame's height, the loop count (0: forever) and each
    /// frame's delay in milliseconds.
    func animation(frames: Int) -> (frameHeight: Int, loop: Int, delays: [Int]) {
        var frameHeight: Int32 = 0
        var loop: Int32 = 0
        var delays = [Int32](repeating: 0, count: max(1, frames))
        let count = delays.withUnsafeMutableBufferPointer {
            vv_image_get_animation(pointer, &frameHeight, &loop, $0.baseAddress, Int32($0.count))
        }
        return (Int(frameHeight), Int(loop), delays.prefix(Int(count)).map(Int.init))
    }

    var width: Int { header.width }
    var height: Int { header.height }
    var hasAlpha: Bool { header.hasAlpha }

    func attachICCProfile(_ profile: [UInt8]) {
        profile.withUnsafeBytes { vv_image_set_icc(pointer, $0.baseAddress, $0.count) }
    }

    /// Tags the image with the EXIF orientation (1–8) that `autorotated` applies.
    func setOrientation(_ orientation: Int) {
        vv_image_set_orientation(pointer, Int32(orientation))
    }

    /// Takes `source`'s resolution, ICC profile and orientation: what pixels decoded outside libvips need of
    /// the header libvips read, so that they convert, turn and save as its own decode would.
    func takeDescription(of source: VipsImage) {
        vv_image_take_description(pointer, source.pointer)
    }

    // MARK: - Operations

    func autorotated() throws(BackendError) -> VipsImage {
        try Vips.image("autorotate") { vv_autorotate(pointer, &$0, &$1) }
    }

    /// The attached ICC profile's bytes, if any.
    var iccProfile: [UInt8]? {
        var profile: UnsafeRawPointer?
        let length = vv_image_get_icc(pointer, &profile)
        guard length > 0, let profile else { return nil }
        return Array(UnsafeRawBufferPointer(start: profile, count: length))
    }

    /// Whether libvips would convert through the attached profile: lcms reads it, its colour space is one
    /// libvips converts, and it describes the pixels' channels (grey, RGB or CMYK). For any other, libvips
    /// quietly converts through a stand-in of its own (sRGB, grey or its print profile).
    var iccProfileFits: Bool { vv_image_icc_fits(pointer) != 0 }

    /// The EXIF block and XMP packet the loader found, as the file holds them (a JPEG's EXIF with its
    /// `Exif\0\0` signature).
    var metadataBlocks: MetadataBlocks {
        func block(_ which: vv_metadata_block) -> [UInt8]? {
            var data: UnsafeRawPointer?
            let length = vv_image_get_metadata(pointer, which, &data)
            guard length > 0, let data else { return nil }
            return Array(UnsafeRawBufferPointer(start: data, count: length))
        }
        return MetadataBlocks(exif: block(VV_METADATA_EXIF), xmp: block(VV_METADATA_XMP))
    }

    func removeICCProfile() {
        vv_image_remove_icc(pointer)
    }

    /// What became of an embedded profile when converting to sRGB.
    enum ProfileOutcome: Sendable, Equatable {
        /// None was applied: there was none, or the caller asked to skip an sRGB one.
        case none
        case converted
        /// lcms could not use it; the pixels were treated as having no profile.
        case ignored
    }

    /// Converts to 8-bit sRGB through the embedded profile with `intent`; nil `intent` leaves the profile
    /// unapplied (the caller found it to be sRGB already).
    func convertedToSRGB(intent: ICCProfile.Intent?) throws(BackendError) -> (
        image: VipsImage, profile: ProfileOutcome
    ) {
        var outcome = Int32(VV_PROFILE_NONE.rawValue)
        let image = try Vips.image("to_srgb") {
            vv_to_srgb(pointer, Int32(intent?.rawValue ?? -1), &$0, &outcome, &$1)
        }
        let profile: ProfileOutcome =
            switch UInt32(outcome) {
            case VV_PROFILE_CONVERTED.rawValue: .converted
            case VV_PROFILE_IGNORED.rawValue: .ignored
            default: .none
            }
        return (image, profile)
    }

    func resized(horizontal: Double, vertical: Double) throws(BackendError) -> VipsImage {
        try Vips.image("resize") { vv_resize(pointer, horizontal, vertical, &$0, &$1) }
    }

    /// Scales to exactly `width` × `height` (the shim's resize rounds; the factors aim at pixel centres).
    func resized(toWidth width: Int, height: Int) throws(BackendError) -> VipsImage {
        let current = header
        if current.width == width && current.height == height { return self }
        return try resized(
            horizontal: Double(width) / Double(current.width),
            vertical: Double(height) / Double(current.height))
    }

    func rotated(degrees: Int) throws(BackendError) -> VipsImage {
        try Vips.image("rotate") { vv_rotate(pointer, Int32(degrees), &$0, &$1) }
    }

    func cropped(left: Int, top: Int, width: Int, height: Int) throws(BackendError) -> VipsImage {
        try Vips.image("crop") {
            vv_crop(pointer, Int32(left), Int32(top), Int32(width), Int32(height), &$0, &$1)
        }
    }

    /// Mirrors left to right (`horizontal`) or top to bottom.
    func flipped(horizontal: Bool) throws(BackendError) -> VipsImage {
        try Vips.image("flip") { vv_flip(pointer, horizontal ? 1 : 0, &$0, &$1) }
    }

    /// The rectangle left once a border of the top-left pixel's colour is removed: what differs from that
    /// colour by more than `threshold` (0…255 a channel), noise ignored; nil when the whole image is that
    /// colour. The image is 8-bit.
    func trimBox(threshold: Double) throws(BackendError) -> (left: Int, top: Int, width: Int, height: Int)? {
        let current = header
        // Alpha is flattened onto the background before searching, so only the colour bands name it.
        let colourBands = current.hasAlpha ? current.bands - 1 : current.bands
        let corner = try cropped(left: 0, top: 0, width: 1, height: 1).pixelBytes().prefix(colourBands)
            .map(Double.init)
        var box: (left: Int32, top: Int32, width: Int32, height: Int32) = (0, 0, 0, 0)
        try Vips.call("find_trim") {
            vv_find_trim(
                pointer, threshold, corner, Int32(corner.count), &box.left, &box.top, &box.width, &box.height,
                &$0)
        }
        guard box.width > 0, box.height > 0 else { return nil }
        return (Int(box.left), Int(box.top), Int(box.width), Int(box.height))
    }

    /// Crops where libvips finds most interest: `attention` looks for skin, saturation and edges. Also
    /// returns where the rectangle it chose starts, so the same one can be cut from other images.
    func smartCropped(width: Int, height: Int, attention: Bool) throws(BackendError) -> (
        image: VipsImage, left: Int, top: Int
    ) {
        var left: Int32 = 0
        var top: Int32 = 0
        let image = try Vips.image("smartcrop") {
            vv_smartcrop(pointer, Int32(width), Int32(height), attention ? 1 : 0, &$0, &left, &top, &$1)
        }
        return (image, Int(left), Int(top))
    }

    func embedded(
        left: Int, top: Int, width: Int, height: Int, background: (Double, Double, Double, Double)
    ) throws(BackendError) -> VipsImage {
        let rgba = [background.0, background.1, background.2, background.3]
        return try Vips.image("embed") { out, error in
            vv_embed(pointer, Int32(left), Int32(top), Int32(width), Int32(height), rgba, &out, &error)
        }
    }

    func flattened(background: (Double, Double, Double)) throws(BackendError) -> VipsImage {
        let rgb = [background.0, background.1, background.2]
        return try Vips.image("flatten") { vv_flatten(pointer, rgb, &$0, &$1) }
    }

    /// `overlay` composed over the image (blend mode over) at (`x`, `y`), its alpha times `opacity`.
    func overlaid(_ overlay: VipsImage, x: Int, y: Int, opacity: Double) throws(BackendError) -> VipsImage {
        try Vips.image("overlay") {
            vv_overlay(pointer, overlay.pointer, Int32(x), Int32(y), opacity, &$0, &$1)
        }
    }

    /// Alpha is premultiplied around the blur, so transparent pixels do not darken the edge of what shows.
    func blurred(sigma: Double) throws(BackendError) -> VipsImage {
        try Vips.image("gaussblur") { vv_gaussblur(pointer, sigma, &$0, &$1) }
    }

    func sharpened(sigma: Double) throws(BackendError) -> VipsImage {
        try Vips.image("sharpen") { vv_sharpen(pointer, sigma, &$0, &$1) }
    }

    /// Decodes every pixel now: decode errors surface here, and later steps reuse the pixels.
    func materialized() throws(BackendError) -> VipsImage {
        try Vips.image("materialize") { vv_materialize(pointer, &$0, &$1) }
    }

    /// The pixels, 8-bit interleaved, row after row.
    func pixelBytes() throws(BackendError) -> [UInt8] {
        if let held = heldPixels { return withExtendedLifetime(self) { Array(held) } }
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        try Vips.call("write_pixels") { vv_write_pixels(pointer, &bytes, &length, &$0) }
        return CCopy.bytes(bytes, count: length, free: vv_free) ?? []
    }

    /// The pixels as RGB or RGBA of 16 bits a sample (`vv_write_words`), made 8-bit by `map` (as
    /// `HeifContainer.mappedToEightBits` does for HEIF): an HDR signal is tone-mapped from those, not from an
    /// 8-bit reduction of it. The 16-bit samples are freed when it returns.
    func mappedToEightBits(
        _ map: (HeifContainer.CodedSamples, LentSamples<UInt16>, EightBitSamples) -> Void
    ) throws(BackendError) -> VipsImage {
        var words: UnsafeMutableRawPointer?
        var length = 0
        var bands: Int32 = 0
        try Vips.call("write_words") { vv_write_words(pointer, &words, &length, &bands, &$0) }
        defer { vv_free(words) }
        let (width, height) = (header.width, header.height)
        let count = width * height * Int(bands)
        guard let words, length == count * 2 else {
            throw BackendError(
                call: "write_words", message: "\(length) bytes for \(width)×\(height)×\(bands)")
        }
        guard let output = malloc(max(1, count)) else {
            throw BackendError(call: "tone_map", message: "out of memory")
        }
        let values = LentSamples<UInt16>(words, count: count)
        map(
            HeifContainer.CodedSamples(
                values: .words(values), width: width, height: height, bands: Int(bands), bits: 16),
            values, EightBitSamples(output))
        return try VipsImage.adopting(
            pixels: output, width: width, height: height, bands: Int(bands), release: { free($0) },
            owner: output)
    }

    /// Calls `body` with the pixels, 8-bit interleaved, row after row: where libvips holds them when the image
    /// is in memory (materialised), so an encoder reads them in place instead of from two copies made by a
    /// libvips evaluation; copied out otherwise. The buffer is valid only inside `body`.
    func withPixels<Result>(_ body: (UnsafeRawBufferPointer) throws(BackendError) -> Result)
        throws(BackendError) -> Result
    {
        if let held = heldPixels {
            return try withExtendedLifetime(self) { () throws(BackendError) in try body(held) }
        }
        return try pixelBytes().withUnsafeBytes { buffer in
            Swift.Result { () throws(BackendError) in try body(buffer) }
        }.get()
    }

    /// The pixels of an image held in memory, borrowed from libvips; nil for one computed on demand.
    private var heldPixels: UnsafeRawBufferPointer? {
        var length = 0
        return vv_image_memory(pointer, &length).map { UnsafeRawBufferPointer(start: $0, count: length) }
    }

    /// A PNG of the pixels with every metadata block stripped, the one format libvips still encodes for us
    /// (JPEG goes through libjpeg-turbo, WebP through libwebp, AVIF through libheif). `effort`: 1–10.
    func encodedAsPNG(effort: Int) throws(BackendError) -> [UInt8] {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        try Vips.call("pngsave") { vv_save_png(pointer, Int32(effort), &bytes, &length, &$0) }
        return CCopy.bytes(bytes, count: length, free: vv_free) ?? []
    }
}
