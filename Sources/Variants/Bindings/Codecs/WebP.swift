internal import CWebPShims

/// The one door to libwebp's encoder (libvips 8.14's WebP saver cannot be stopped from writing EXIF).
enum WebPEncoder {
    /// A still WebP of `image`'s pixels, read where libvips holds them.
    static func encode(_ image: VipsImage, quality: Int, effort: Int, threads: Int) throws(BackendError)
        -> [UInt8]
    {
        let header = image.header
        var options = vw_options(quality: Float(quality), method: Int32(effort), threads: Int32(threads))
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let status = try image.withPixels {
            vw_encode(
                $0.baseAddress, Int32(header.width), Int32(header.height), Int32(header.bands), &options,
                &bytes,
                &length)
        }
        return try WebP.check(status, "webp_encode", bytes: bytes, length: length)
    }

    /// An animated WebP: `frames` are each `width` × `height` pixels of `bands` bands, shown for `delays`
    /// milliseconds each, played `loop` times (0: forever).
    static func encodeAnimation(
        frames: [[UInt8]], width: Int, height: Int, bands: Int, delays: [Int], loop: Int, quality: Int,
        effort: Int,
        threads: Int
    ) throws(BackendError) -> [UInt8] {
        var options = vw_options(quality: Float(quality), method: Int32(effort), threads: Int32(threads))
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let durations = delays.map(Int32.init)
        let status = withFramePointers(frames[...], []) { pointers in
            vw_encode_animation(
                pointers, Int32(pointers.count), Int32(width), Int32(height), Int32(bands), durations,
                Int32(loop),
                &options, &bytes, &length)
        }
        return try WebP.check(status, "webp_encode_animation", bytes: bytes, length: length)
    }

    /// `webp` (still or animated) with `metadata`'s EXIF and XMP chunks added; itself when there are none.
    static func adding(_ metadata: MetadataBlocks, to webp: [UInt8]) throws(BackendError) -> [UInt8] {
        guard !metadata.isEmpty else { return webp }
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let status = try metadata.withPointers { exif, exifLength, xmp, xmpLength in
            webp.withUnsafeBytes {
                vw_add_metadata(
                    $0.baseAddress, $0.count, exif, exifLength, xmp, xmpLength, &bytes, &length)
            }
        }
        return try WebP.check(status, "webp_add_metadata", bytes: bytes, length: length)
    }

    /// Calls `body` with a pointer to every frame's pixels, each pinned for the duration of the call.
    private static func withFramePointers<Result>(
        _ frames: ArraySlice<[UInt8]>, _ pointers: [UnsafeRawPointer?],
        _ body: ([UnsafeRawPointer?]) -> Result
    ) -> Result {
        guard let first = frames.first else { return body(pointers) }
        return first.withUnsafeBytes {
            withFramePointers(frames.dropFirst(), pointers + [$0.baseAddress], body)
        }
    }
}

/// libwebp's failure rule: an encoding call returns 0 and hands over its bytes, or returns a
/// `VP8_ENC_ERROR_*` status; either way the bytes it may have made are freed with libwebp's free.
private enum WebP {
    static func check(_ status: Int32, _ call: String, bytes: UnsafeMutableRawPointer?, length: Int)
        throws(BackendError) -> [UInt8]
    {
        let encoded = CCopy.bytes(bytes, count: length, free: vw_free)
        guard status == 0 else { throw BackendError(call: call, message: "libwebp error \(status)") }
        guard let encoded else { throw BackendError(call: call, message: "no bytes returned") }
        return encoded
    }
}
