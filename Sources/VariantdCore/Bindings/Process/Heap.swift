internal import CSeccomp

/// glibc's heap, as a long-lived decoder child needs it.
enum Heap {
    /// Returns every free page of the heap to the kernel (`malloc_trim`) once more than `kept` bytes of it
    /// are free: glibc keeps freed memory mapped for reuse, so a child's resident set would otherwise stay at
    /// its largest picture's; below `kept`, the next picture reuses those pages instead of faulting in fresh,
    /// zeroed ones (4,700 page faults a JPEG job when every job trimmed).
    static func trim(keeping kept: Int) {
        if mallinfo2().fordblks > kept { malloc_trim(0) }
    }
}
