import Foundation

/// The kernel's status file of a process or of one of its threads (`/proc/<pid>[/task/<tid>]/status`).
enum ProcessStatus {
    /// The value of its `name:` line, or "" when it has none.
    static func field(_ name: String, of path: String) throws -> String {
        let line = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix(name + ":") }
        return line.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) } ?? ""
    }
}
