/// The metadata an encoder writes into a rendition, as the blocks the formats carry: a TIFF-structured EXIF
/// block (no `Exif\0\0` prefix: each format's writer adds what it wants) and an XMP packet. Empty writes
/// none.
struct MetadataBlocks: Sendable, Equatable {
    var exif: [UInt8]?
    var xmp: [UInt8]?

    static let none = MetadataBlocks()

    var isEmpty: Bool { (exif ?? []).isEmpty && (xmp ?? []).isEmpty }

    /// Calls `body` with each block's address and length (nil and 0 for one not there), valid only inside.
    func withPointers<Result>(
        _ body: (
            _ exif: UnsafeRawPointer?, _ exifLength: Int, _ xmp: UnsafeRawPointer?, _ xmpLength: Int
        ) throws(BackendError) -> Result
    ) throws(BackendError) -> Result {
        try Self.pinned(exif) { (exif, exifLength) throws(BackendError) in
            try Self.pinned(xmp) { (xmp, xmpLength) throws(BackendError) in
                try body(exif, exifLength, xmp, xmpLength)
            }
        }
    }

    private static func pinned<Result>(
        _ bytes: [UInt8]?, _ body: (UnsafeRawPointer?, Int) throws(BackendError) -> Result
    ) throws(BackendError) -> Result {
        guard let bytes, !bytes.isEmpty else { return try body(nil, 0) }
        return try bytes.withUnsafeBytes { buffer in
            Swift.Result { () throws(BackendError) in try body(buffer.baseAddress, buffer.count) }
        }.get()
    }
}
