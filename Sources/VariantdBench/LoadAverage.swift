import Foundation

/// How busy the machine was: every figure is reported with the load average around it.
enum LoadAverage {
    /// The 1-minute load average, the first figure of `/proc/loadavg` (where glibc's `getloadavg` reads it);
    /// 0 when the system does not tell.
    static func oneMinute() -> Double {
        let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)
        return text?.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
}
