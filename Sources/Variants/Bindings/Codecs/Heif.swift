internal import CHeifShims
internal import Glibc

/// The one door to libheif: parse a container, say what its primary image is, and decode it.
///
/// HEIF decoding can abort the whole process inside libheif 1.19 on some corrupt files, so callers run
/// it where an abort costs one answer: the decoder child process.
final class HeifContainer {
    /// What the container says about its primary image; sizes are after irot, imir and clap.
    struct Info: Sendable, Equatable {
        var width: Int
        var height: Int
        var hasAlpha: Bool
        var bitDepth: Int
        var topLevelImages: Int
        /// Four-character code of the primary item (`hvc1`, `av01`, `grid`, …).
        var itemType: String
        /// Four-character code of what is coded: the first tile's for a grid.
        var codedType: String
        /// The `nclx` colour description, when the container has one.
        var nclx: NCLX?
    }

    struct Limits: Sendable {
        var maxPixels: Int
        var maxMemoryBlock: Int
        var maxItems: Int
        var maxTiles: Int
        var threads: Int
    }

    private let context: OpaquePointer
    let info: Info
    /// The HEVC decoder tried first; nil for AV1 and when libheif's own choice (libde265) is all there is.
    private let decoder: HEVCDecoder?
    private static let hevc: UInt32 = 0x6876_6331  // "hvc1"

    static var version: String { String(cString: vh_version()) }

    init(bytes: [UInt8], limits: Limits) throws(BackendError) {
        var raw = vh_limits(
            max_pixels: UInt64(limits.maxPixels), max_memory_block: UInt64(limits.maxMemoryBlock),
            max_items: UInt32(limits.maxItems), max_tiles: UInt32(limits.maxTiles),
            threads: Int32(limits.threads))
        var out: OpaquePointer?
        var info = vh_info()
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(BackendError) in
                try Heif.call("open") { vh_open(buffer.baseAddress, buffer.count, &raw, &out, &info, &$0) }
            }
        }.get()
        guard let out else { throw BackendError(call: "heif_open", message: "no context returned") }
        context = out
        decoder = info.coded_type == Self.hevc ? HEVCDecoder.preferred : nil
        vh_choose_decoder(out, decoder?.cString)
        self.info = Info(
            width: Int(info.width), height: Int(info.height), hasAlpha: info.has_alpha != 0,
            bitDepth: Int(info.bit_depth), topLevelImages: Int(info.top_level_images),
            itemType: Self.fourCC(info.item_type), codedType: Self.fourCC(info.coded_type),
            nclx: info.nclx_primaries == 0
                ? nil
                : NCLX(
                    primaries: Int(info.nclx_primaries), transfer: Int(info.nclx_transfer),
                    chromaticities: withUnsafeBytes(of: info.nclx_xy) {
                        Array($0.bindMemory(to: Float.self)).map(Double.init)
                    }))
    }

    deinit {
        vh_close(context)
    }

    /// The primary image's EXIF block (TIFF-structured, libheif's offset read) and XMP packet, each at most
    /// `maxLength` bytes.
    func metadataBlocks(maxLength: Int) -> MetadataBlocks {
        func block(xmp: Bool) -> [UInt8]? {
            var length = 0
            let copy = vh_copy_metadata(context, xmp ? 1 : 0, maxLength, &length)
            return CCopy.bytes(copy, count: length, free: vh_free)
        }
        // libheif's EXIF starts with the big-endian offset of the TIFF header past those four bytes.
        let exif = block(xmp: false).flatMap { bytes -> [UInt8]? in
            guard bytes.count >= 4 else { return nil }
            let offset = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
            return offset < bytes.count - 4 ? Array(bytes[(4 + offset)...]) : nil
        }
        return MetadataBlocks(exif: exif, xmp: block(xmp: true))
    }

    /// How a grid image is tiled, in displayed coordinates (1 × 1 for a plain image).
    struct Tiling: Sendable, Equatable {
        var columns: Int
        var rows: Int
        var tileWidth: Int
        var tileHeight: Int
        var leftOffset: Int
        var topOffset: Int
    }

    func tiling() throws(BackendError) -> Tiling {
        var tiling = vh_tiling()
        try Heif.call("tiling") { vh_get_tiling(context, &tiling, &$0) }
        return Tiling(
            columns: Int(tiling.columns), rows: Int(tiling.rows), tileWidth: Int(tiling.tile_width),
            tileHeight: Int(tiling.tile_height), leftOffset: Int(tiling.left_offset),
            topOffset: Int(tiling.top_offset))
    }

    /// Decodes the primary image to 8-bit sRGB-ordered pixels inside a libvips image, without a copy.
    func decode() throws(BackendError) -> VipsImage {
        try adopt("decode") { vh_decode(context, 0, &$0, &$1) }
    }

    /// Composes an overlay from the images it places (see `HEIFOverlay`), to 8-bit pixels, cut to the part
    /// of the canvas it shows.
    func decodeOverlay(_ overlay: HEIFOverlay) throws(BackendError) -> VipsImage {
        let placements = overlay.placements.map {
            vh_placement(item: UInt32(truncatingIfNeeded: $0.item), x: Int32($0.x), y: Int32($0.y))
        }
        let canvas = try adopt("decode_overlay") { pixels, error in
            placements.withUnsafeBufferPointer { placed in
                overlay.fill.withUnsafeBufferPointer { fill in
                    vh_decode_overlay(
                        context, Int32(overlay.width), Int32(overlay.height), fill.baseAddress,
                        placed.baseAddress,
                        Int32(placed.count), &pixels, &error)
                }
            }
        }
        let shown = shownArea(of: overlay)
        guard shown.width != overlay.width || shown.height != overlay.height else { return canvas }
        return try canvas.cropped(left: shown.left, top: shown.top, width: shown.width, height: shown.height)
    }

    /// The part of an overlay's canvas it shows: all of it, or what its clean aperture (`clap`) keeps, as
    /// libheif rounds the aperture's fractions for every other image. An aperture that keeps nothing keeps
    /// the whole canvas, as libheif does with one it cannot use.
    func shownArea(of overlay: HEIFOverlay) -> (left: Int, top: Int, width: Int, height: Int) {
        var borders: [Int32] = [0, 0, 0, 0]
        let whole = (left: 0, top: 0, width: overlay.width, height: overlay.height)
        guard overlay.hasCleanAperture,
            vh_crop_borders(
                context, UInt32(truncatingIfNeeded: overlay.item), Int32(overlay.width),
                Int32(overlay.height),
                &borders) == 0
        else { return whole }
        let (left, top) = (Int(max(0, borders[0])), Int(max(0, borders[1])))
        let width = overlay.width - left - Int(max(0, borders[2]))
        let height = overlay.height - top - Int(max(0, borders[3]))
        return width > 0 && height > 0 ? (left, top, width, height) : whole
    }

    /// The primary image made 8-bit by `map`, from its samples at their coded depth (an HDR signal must not
    /// be cut to 8 bits before it is tone-mapped): `map` writes every sample of an image of the same size and
    /// bands, which libvips then holds without a copy. The coded samples are freed when it returns.
    func mappedToEightBits(_ map: (CodedSamples, EightBitSamples) -> Void) throws(BackendError) -> VipsImage {
        let coded = try decodePixels("decode") { vh_decode(context, 1, &$0, &$1) }
        defer { vh_pixels_release(coded.owner) }
        let count = Int(coded.width) * Int(coded.height) * Int(coded.bands)
        let samples = CodedSamples(
            values: coded.bits > 8
                ? .words(LentSamples(coded.data, count: count))
                : .bytes(LentSamples(coded.data, count: count)),
            width: Int(coded.width), height: Int(coded.height), bands: Int(coded.bands), bits: Int(coded.bits)
        )
        guard let output = malloc(max(1, count)) else {
            throw BackendError(call: "tone_map", message: "out of memory")
        }
        map(samples, EightBitSamples(output))
        return try VipsImage.adopting(
            pixels: output, width: samples.width, height: samples.height, bands: samples.bands,
            release: { free($0) }, owner: output)
    }

    /// Interleaved RGB or RGBA samples, rows packed, each holding `bits` significant bits.
    struct CodedSamples {
        /// One byte a sample at 8 bits, else two (little endian).
        enum Values {
            case bytes(LentSamples<UInt8>)
            case words(LentSamples<UInt16>)
        }

        var values: Values
        var width: Int
        var height: Int
        var bands: Int
        var bits: Int
    }

    /// Decodes a grid image tile by tile, each averaged down by `factor`, on `threads` threads (at least
    /// one, at most `maxTileWorkers`): the full-size picture never exists in memory (a 200-megapixel photo
    /// would need 600 MB).
    func decodeReduced(factor: Int, threads: Int) throws(BackendError) -> VipsImage {
        let workers = Int32(min(max(threads, 1), Self.maxTileWorkers))
        return try adopt("decode_reduced") { vh_decode_reduced(context, Int32(factor), workers, &$0, &$1) }
    }

    /// Each tile worker reads the whole file through a libheif context of its own; past eight, more
    /// contexts cost memory without shortening a decode on the machines we run on.
    static let maxTileWorkers = 8

    /// Runs a decoding call and hands its pixels to libvips, which frees them when the image closes.
    private func adopt(_ name: String, _ body: (inout vh_pixels, inout vh_error) -> Int32)
        throws(BackendError)
        -> VipsImage
    {
        let pixels = try decodePixels(name, body)
        guard let data = pixels.data, let owner = pixels.owner else {
            throw BackendError(call: "heif_\(name)", message: "no pixels returned")
        }
        let profile = pixels.icc.map { Array(UnsafeRawBufferPointer(start: $0, count: pixels.icc_length)) }
        let image = try VipsImage.adopting(
            pixels: data, width: Int(pixels.width), height: Int(pixels.height), bands: Int(pixels.bands),
            release: vh_pixels_release, owner: owner)
        if let profile { image.attachICCProfile(profile) }
        return image
    }

    /// Runs a decoding call; when the preferred HEVC decoder fails, libde265 gets the same call, and what it
    /// cannot decode either is the failure reported. The pixels returned are the caller's to release.
    private func decodePixels(_ name: String, _ body: (inout vh_pixels, inout vh_error) -> Int32)
        throws(BackendError) -> vh_pixels
    {
        var pixels = vh_pixels()
        do {
            try Heif.call(name) { body(&pixels, &$0) }
        } catch  where decoder != nil && decoder != .libde265 {
            vh_choose_decoder(context, HEVCDecoder.libde265.cString)
            pixels = vh_pixels()
            try Heif.call(name) { body(&pixels, &$0) }
        }
        guard pixels.data != nil, pixels.owner != nil else {
            vh_pixels_release(pixels.owner)
            throw BackendError(call: "heif_\(name)", message: "no pixels returned")
        }
        return pixels
    }

    private static func fourCC(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> UInt32($0)) }
        return String(decoding: bytes, as: UTF8.self)
    }

}

/// libheif's failure rule: a shim call returns 0, or fills `vh_error` with libheif's words; the failure is
/// a `BackendError` named `heif_<call>`.
private enum Heif {
    static func call(_ name: String, _ body: (inout vh_error) -> Int32) throws(BackendError) {
        var error = vh_error()
        guard body(&error) == 0 else {
            throw BackendError(call: "heif_\(name)", message: CCopy.text(ofField: error.message))
        }
    }
}

/// The HEVC decoder plugins of libheif we choose between. FFmpeg's (`libheif-plugin-ffmpegdec`) decodes
/// phone HEICs faster than libde265, which libheif prefers by itself; libde265 stays the fallback.
/// `VARIANTD_HEVC_DECODER=libde265` (or `ffmpeg`) forces one, for measuring them against each other.
enum HEVCDecoder: String, Sendable, CaseIterable {
    case ffmpeg, libde265

    /// libheif's id for the plugin, as a static C string that outlives every context.
    var cString: UnsafePointer<CChar> {
        let id: StaticString =
            switch self {
            case .ffmpeg: "ffmpeg"
            case .libde265: "libde265"
            }
        return UnsafeRawPointer(id.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    var isInstalled: Bool { vh_has_hevc_decoder(cString) != 0 }

    /// The one tried first: the environment's choice when installed, else the first installed in order.
    static let preferred: HEVCDecoder? = {
        let forced = getenv("VARIANTD_HEVC_DECODER").flatMap { HEVCDecoder(rawValue: String(cString: $0)) }
        return [forced].compactMap { $0 }.filter(\.isInstalled).first ?? allCases.first(where: \.isInstalled)
    }()
}

/// AVIF output through libheif and aom (libvips 8.14's HEIF saver fails against libheif 1.19).
enum HeifEncoder {
    /// Encodes an 8-bit sRGB image (3 or 4 bands) as a still AVIF without metadata but `metadata`'s, its
    /// pixels read where libvips holds them.
    ///
    /// - Parameter speed: aom's speed, 0 (slowest, smallest) to 9 (fastest).
    static func avif(
        _ image: VipsImage, quality: Int, speed: Int, threads: Int, metadata: MetadataBlocks = .none
    ) throws(BackendError) -> [UInt8] {
        let header = image.header
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let outcome = try metadata.withPointers { (exif, exifLength, xmp, xmpLength) throws(BackendError) in
            var options = vh_encode_options(
                quality: Int32(quality), speed: Int32(speed), threads: Int32(threads), exif: exif,
                exif_length: exifLength, xmp: xmp, xmp_length: xmpLength)
            return try image.withPixels { buffer in
                Result { () throws(BackendError) in
                    try Heif.call("encode_avif") {
                        vh_encode_avif(
                            buffer.baseAddress, Int32(header.width), Int32(header.height),
                            Int32(header.bands),
                            &options, &bytes, &length, &$0)
                    }
                }
            }
        }
        let encoded = CCopy.bytes(bytes, count: length, free: vh_free)
        try outcome.get()
        guard let encoded else {
            throw BackendError(call: "heif_encode_avif", message: "no bytes returned")
        }
        return encoded
    }
}
