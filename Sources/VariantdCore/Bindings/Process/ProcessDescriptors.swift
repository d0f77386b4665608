import Foundation

/// Open file descriptors, counted from `/proc/<id>/fd`: a count that creeps up under steady load is a leak.
package enum ProcessDescriptors {
    /// The daemon's own.
    static var openCount: Int? { openCount(of: "self") }

    /// Any process's, by its id.
    package static func openCount(of process: String) -> Int? {
        // The listing's own descriptor is among the entries of `self`.
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/fd") else {
            return nil
        }
        return process == "self" ? entries.count - 1 : entries.count
    }
}
