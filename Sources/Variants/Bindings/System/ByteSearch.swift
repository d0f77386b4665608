#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `memchr`, which reads many bytes a step: the JPEG walk looks for markers through megabytes of
/// entropy-coded data, where a byte-by-byte loop took a millisecond a photo.
enum ByteSearch {
    /// The index of the first `byte` in `bytes` at or after `start`; nil when there is none.
    static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!
            return memchr(base + start, Int32(byte), buffer.count - start).map { UnsafeRawPointer($0) - base }
        }
    }
}
