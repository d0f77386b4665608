/// libFuzzer entry for the ICC profile reader (`ICCProfile`): any bytes are a profile's facts, with the colour
/// encoding a `cicp` tag or libjxl's description states, or nil, never a trap or an out-of-bounds read.
@_cdecl("LLVMFuzzerTestOneInput")
public func readOneProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = ICCProfile(Array(UnsafeBufferPointer(start: data, count: size)))?.codePoints
    return 0
}
