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
}
