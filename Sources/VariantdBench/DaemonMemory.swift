import Foundation
import VariantdCore

/// The resident memory of a daemon and of every process below it (its decoder children), from `/proc`.
enum DaemonMemory {
    static func sample(_ daemon: Int32, at label: String, jobs: Int? = nil) -> ServeLoadReport.MemorySample {
        let children = descendants(of: daemon)
        let childBytes = children.reduce(0) { $0 + (ProcessMemory.residentBytes(of: "\($1)") ?? 0) }
        return ServeLoadReport.MemorySample(
            at: label, jobs: jobs, daemonMB: megabytes(ProcessMemory.residentBytes(of: "\(daemon)") ?? 0),
            childrenMB: megabytes(childBytes), children: children.count)
    }

    /// Runs `body` while sampling every 0.2 s, and returns its result with the highest daemon + children
    /// total seen, in MB.
    static func peak<T: Sendable>(of daemon: Int32, during body: () async -> T) async -> (T, Double) {
        let watch = Task {
            var peak = 0.0
            while !Task.isCancelled {
                let now = sample(daemon, at: "")
                peak = max(peak, now.daemonMB + now.childrenMB)
                try? await Task.sleep(for: .milliseconds(200))
            }
            return peak
        }
        let result = await body()
        watch.cancel()
        let last = sample(daemon, at: "")
        return (result, max(await watch.value, last.daemonMB + last.childrenMB))
    }

    /// Every process whose parent chain leads to `root`, from one pass over `/proc/*/stat`.
    static func descendants(of root: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var children: [Int32: [Int32]] = [:]
        for entry in entries {
            guard let id = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let parent = parentID(stat)
            else { continue }
            children[parent, default: []].append(id)
        }
        var found: [Int32] = []
        var pending = children[root] ?? []
        while let next = pending.popLast(), found.count < entries.count {
            found.append(next)
            pending += children[next] ?? []
        }
        return found
    }

    /// The fourth field of `/proc/<id>/stat`, counted after the command name's closing parenthesis (the
    /// name itself may hold spaces and parentheses).
    private static func parentID(_ stat: String) -> Int32? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    private static func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}
