internal import CWebPShims

/// The one door to libwebp's encoder (libvips 8.14's WebP saver cannot be stopped from writing EXIF).
enum WebPEncoder {
    static func encode(
        pixels: [UInt8], width: Int, height: Int, bands: Int, quality: Int, effort: Int, threads: Int
    ) throws(BackendError) -> [UInt8] {
        var options = vw_options(quality: Float(quality), method: Int32(effort), threads: Int32(threads))
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let status = pixels.withUnsafeBytes {
            vw_encode($0.baseAddress, Int32(width), Int32(height), Int32(bands), &options, &bytes, &length)
        }
        defer { vw_free(bytes) }
        guard status == 0, let bytes else {
            throw BackendError(call: "webp_encode", message: "libwebp error \(status)")
        }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
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
        defer { vw_free(bytes) }
        guard status == 0, let bytes else {
            throw BackendError(call: "webp_encode_animation", message: "libwebp error \(status)")
        }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
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
