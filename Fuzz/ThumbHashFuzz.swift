/// libFuzzer entry for the ThumbHash decoder: a malformed or truncated hash is a typed error, never a trap
/// or an out-of-bounds read.
@_cdecl("LLVMFuzzerTestOneInput")
public func decodeOneHash(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let hash = try? ThumbHash(bytes: bytes) {
        _ = hash.decode()
        _ = hash.averageColor
        _ = hash.approximateAspectRatio
        _ = hash.base64
    }
    _ = try? ThumbHash(base64: String(decoding: bytes, as: UTF8.self))
    return 0
}
