/// Samples a C library lent, read by index as plain values. As with any buffer pointer, a release build does
/// not check the index: the lender vouches for the count, and the pixel loops that read these are hot.
struct LentSamples<Sample: FixedWidthInteger & UnsignedInteger> {
    private let values: UnsafeBufferPointer<Sample>

    init(_ start: UnsafeRawPointer?, count: Int) {
        values = UnsafeRawBufferPointer(start: start, count: count * MemoryLayout<Sample>.stride)
            .bindMemory(to: Sample.self)
    }

    subscript(index: Int) -> Int { Int(values[index]) }
}

/// The 8-bit samples of an image being made, written by index before libvips takes them over (unchecked in
/// a release build, like `LentSamples`).
struct EightBitSamples {
    private let start: UnsafeMutablePointer<UInt8>

    init(_ start: UnsafeMutableRawPointer) {
        self.start = start.assumingMemoryBound(to: UInt8.self)
    }

    subscript(index: Int) -> UInt8 {
        get { start[index] }
        nonmutating set { start[index] = newValue }
    }
}
