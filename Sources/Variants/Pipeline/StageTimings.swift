/// Seconds spent in each named stage of one object (read, hash, sniff, probe, decode, thumbhash, …).
public struct StageTimings: Sendable, Codable, Equatable {
    public private(set) var seconds: [String: Double] = [:]

    public init() {}

    /// Runs `body`, adding its duration to `stage`.
    public mutating func measure<T, E: Error>(_ stage: String, _ body: () throws(E) -> T) throws(E) -> T {
        let start = ContinuousClock.now
        defer { add(stage, start.duration(to: .now)) }
        return try body()
    }

    public mutating func add(_ stage: String, _ duration: Duration) {
        let (whole, fraction) = duration.components
        seconds[stage, default: 0] += Double(whole) + Double(fraction) * 1e-18
    }

    public mutating func merge(_ other: StageTimings) {
        seconds.merge(other.seconds, uniquingKeysWith: +)
    }
}
