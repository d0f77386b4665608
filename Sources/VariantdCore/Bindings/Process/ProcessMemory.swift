import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Resident memory from `/proc/<id>/statm` (its second field counts pages).
package enum ProcessMemory {
    /// The daemon's own.
    static var residentBytes: Int? { residentBytes(of: "self") }

    /// Any process's, by its id: the load benchmark reads the daemon's and its decoder children's.
    package static func residentBytes(of process: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/statm", encoding: .utf8) else {
            return nil
        }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
