import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's own resident memory, from `/proc/self/statm` (its second field counts pages).
enum ProcessMemory {
    static var residentBytes: Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
