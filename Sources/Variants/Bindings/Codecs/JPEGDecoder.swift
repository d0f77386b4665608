internal import CJPEGShims

/// The door to libjpeg-turbo's decoder for grey and YCbCr JPEGs whose decode fits one buffer: the whole
/// picture at the shrink asked for, read sixteen rows per call into memory libvips then adopts. libvips' loader
/// runs the same library with the same settings, so the pixels are the same, but one row per call behind its
/// sequential line cache and a worker thread: 4 to 5 ms more a photo, as much as the reduce after it.
enum JPEGDecoder {
    /// Above this a decode is left to libvips' loader, which streams it in strips to the reduce, so that a
    /// large picture never sits in memory whole: 64 MiB is 22 megapixels of RGB.
    static let largestWholeDecode = 64 << 20

    /// Whether a `width` × `height` JPEG of `bands` bands, decoded at 1/`shrink`, fits one buffer.
    static func decodesWhole(width: Int, height: Int, bands: Int, shrink: Int) -> Bool {
        let (scaledWidth, scaledHeight) = ((width + shrink - 1) / shrink, (height + shrink - 1) / shrink)
        return (bands == 1 || bands == 3) && scaledWidth * scaledHeight * bands <= largestWholeDecode
    }

    /// The pixels at 1/`shrink` (1, 2, 4 or 8). Fails as libvips' loader does when told to fail on errors:
    /// on data that ends before the picture does and on a hundred warnings, not on one corrupt-data warning.
    static func decode(_ bytes: [UInt8], shrink: Int) throws(BackendError) -> VipsImage {
        var picture = vj_picture()
        var failure = vj_failure()
        let status = bytes.withUnsafeBytes {
            vj_decode($0.baseAddress, $0.count, Int32(shrink), largestWholeDecode, &picture, &failure)
        }
        guard status == 0, let pixels = picture.pixels else {
            throw BackendError(call: "jpeg_decode", message: CCopy.text(ofField: failure.message))
        }
        return try VipsImage.adopting(
            pixels: pixels, width: Int(picture.width), height: Int(picture.height), bands: Int(picture.bands),
            release: vj_free, owner: pixels)
    }
}
