internal import CVipsShims

/// glibc's allocator, set for a process that decodes pictures. Each picture allocates and frees pixel
/// buffers of a few megabytes; by default glibc gives such a buffer back to the kernel when it is freed
/// (a mapping of its own, or a trim of the heap's top), and the next picture faults every page in again,
/// zeroed: 3,500 page faults and a tenth of the CPU time of a JPEG job. It also gives libvips' worker
/// threads arenas of their own, each keeping free memory of its own (docs/Benchmarks.md, "Levers that are
/// in").
package enum Allocator {
    /// Blocks under this size come from the heap and are reused (a 1600 px RGBA rendition is 10 MB, a
    /// 24 MP photo decoded at 1/2 is 18 MB); larger ones, a 200 MP decode, still map pages of their own
    /// and return them when freed.
    static let heapBlockLimit = 32 << 20
    /// Free memory kept for the next picture: glibc trims the heap's top beyond it, and a decoder child
    /// hands its free pages back after a job only when it holds more.
    package static let keptFreeMemory = 64 << 20

    /// One arena for every thread and fixed thresholds; called once, before libvips starts its threads.
    static func keepPictureBuffers() {
        vv_set_allocator(1, Int32(heapBlockLimit), Int32(keptFreeMemory))
    }
}
