import Foundation

/// A program started on one core through util-linux's `taskset`, its children included: the render
/// benchmark gives the server one core and its load generator the other, so neither measures the other.
enum CorePinning {
    static let taskset = "/usr/bin/taskset"

    /// The executable and arguments that run `executable` with `arguments` on `core`; unchanged when `core`
    /// is nil or taskset is missing.
    static func command(_ executable: String, _ arguments: [String], core: Int?) -> (String, [String]) {
        guard let core, FileManager.default.isExecutableFile(atPath: taskset) else {
            return (executable, arguments)
        }
        return (taskset, ["-c", "\(core)", executable] + arguments)
    }

    /// The server's core and the client's on a machine of two cores or more; nil on one.
    static var serverAndClient: (server: Int, client: Int)? {
        ProcessInfo.processInfo.activeProcessorCount >= 2 ? (1, 0) : nil
    }
}
