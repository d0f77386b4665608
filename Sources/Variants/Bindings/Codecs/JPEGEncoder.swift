internal import CJPEGShims

/// The one door to jpegli's encoder (libjxl's libjpeg-compatible one): plain 8-bit JPEG that every decoder
/// reads, about a fifth smaller than libjpeg-turbo's at the same look, from pixels read where libvips holds
/// them. A declared quality keeps libjpeg-turbo's look (`JPEGQualityScale`).
enum JPEGEncoder {
    /// A JPEG of `image`'s 8-bit grey or RGB pixels, every metadata block left out but `metadata`'s.
    static func encode(
        _ image: VipsImage, quality: Int, progressive: Bool, optimizedCoding: Bool,
        metadata: MetadataBlocks = .none
    ) throws(BackendError) -> [UInt8] {
        let header = image.header
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        var failure = vj_failure()
        let status = try metadata.withPointers { (exif, exifLength, xmp, xmpLength) throws(BackendError) in
            // libvips' saver's rule: chroma at half resolution below quality 90, whole from it.
            var options = vj_options(
                quality: Int32(JPEGQualityScale.jpegliQuality(forQuality: quality)),
                progressive: progressive ? 1 : 0,
                optimize_coding: optimizedCoding ? 1 : 0,
                subsample_chroma: header.bands == 3 && quality < 90 ? 1 : 0,
                exif: exif, exif_length: exifLength, xmp: xmp, xmp_length: xmpLength)
            return try image.withPixels {
                vj_encode(
                    $0.baseAddress, Int32(header.width), Int32(header.height), Int32(header.bands),
                    header.width * header.bands, &options, &bytes, &length, &failure)
            }
        }
        guard status == 0, let encoded = CCopy.bytes(bytes, count: length, free: vj_free) else {
            throw BackendError(call: "jpeg_encode", message: CCopy.text(ofField: failure.message))
        }
        return encoded
    }
}
