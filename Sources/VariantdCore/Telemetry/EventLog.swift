import Foundation

/// The daemon's structured log: one JSON object per line on stderr (`"event"` says which kind: `job`,
/// `landlock_unavailable`, `starting`, `listening`, `reload`, `draining`, `stopped`).
enum EventLog {
    static func write(_ entry: some Encodable) {
        guard let line = try? WireJSON.line(entry) else { return }
        AccessLog.shared.flush(then: line)
    }

    /// A lifecycle event with a few fields.
    static func event(_ name: String, _ fields: [String: JSONScalar] = [:]) {
        write(fields.merging(["event": .string(name)]) { $1 })
    }
}
