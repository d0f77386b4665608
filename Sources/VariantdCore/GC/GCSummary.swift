import Foundation

/// What a `gc` run did, counted as it goes: the last line it prints, or its `--json` line.
struct GCSummary: Sendable, Equatable, Codable {
    /// Nothing was removed: `removed` and `bytesFreed` are what would have been.
    var dryRun = false
    /// Renditions removed: their source's bytes are under no object any more, and they are older than the
    /// grace period.
    var removed = 0
    /// Renditions kept because an object holds their source's bytes.
    var keptLive = 0
    /// Renditions of bytes no object holds, kept because they are younger than the grace period.
    var keptYoung = 0
    var bytesFreed: Int64 = 0
    /// Objects under `--root` read and hashed by this run.
    var sourcesHashed = 0
    /// Objects whose checksum came from the state file: the same version as when they were last hashed.
    var sourcesReused = 0

    /// The summary for a person.
    /// `gc: removed 3 renditions (1.2 MB freed); kept 40 of live sources, 2 younger than 1h; 5 sources
    /// hashed, 120 reused`
    func text(grace: Duration) -> String {
        let verb = dryRun ? "would remove" : "removed"
        let freed = dryRun ? "to free" : "freed"
        return "gc: \(verb) \(removed) renditions (\(Self.bytes(bytesFreed)) \(freed)); "
            + "kept \(keptLive) of live sources, \(keptYoung) younger than \(Self.age(grace)); "
            + "\(sourcesHashed) sources hashed, \(sourcesReused) reused"
    }

    /// Bytes in the largest decimal unit that keeps a whole number in front: `512 B`, `1.2 MB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : "\(ProgressLine.oneDecimal(value)) \(units[unit])"
    }

    /// A duration as it was given: in the largest unit that divides it.
    static func age(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)]
        where seconds > 0 && seconds % size == 0 {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
