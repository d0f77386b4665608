internal import CSeccomp

/// glibc's heap, as a long-lived decoder child needs it.
enum Heap {
    /// Returns every free page of the heap to the kernel (`malloc_trim`): glibc keeps freed memory mapped
    /// for reuse, so a child's resident set would otherwise stay at its largest picture's.
    static func trim() {
        malloc_trim(0)
    }
}
