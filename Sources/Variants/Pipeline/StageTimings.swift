/// Seconds spent in each stage of one object (read, hash, sniff, probe, decode, thumbhash, …), rendering and
/// encoding split per variant (`render.thumb`, `encode.thumb`).
public struct StageTimings: Sendable, Codable, Equatable {
    /// By timing key: the stage's name, followed by `.<variant>` for per-variant stages.
    public private(set) var seconds: [String: Double] = [:]

    public init() {}

    /// Runs `body`, adding its duration to `stage` (of `variant`, when the stage is per variant).
    public mutating func measure<T, E: Error>(
        _ stage: Stage, variant: String? = nil, _ body: () throws(E) -> T
    ) throws(E) -> T {
        let start = ContinuousClock.now
        defer { add(stage, variant: variant, start.duration(to: .now)) }
        return try body()
    }

    public mutating func add(_ stage: Stage, variant: String? = nil, _ duration: Duration) {
        let key = variant.map { stage.rawValue + "." + $0 } ?? stage.rawValue
        seconds[key, default: 0] += duration / .seconds(1)
    }

    /// Seconds per stage, variants added up: bounded by `Stage`, whatever the variants are called.
    public var byStage: [Stage: Double] {
        var totals: [Stage: Double] = [:]
        for (key, value) in seconds {
            if let stage = Stage(timingKey: key) { totals[stage, default: 0] += value }
        }
        return totals
    }

    public mutating func merge(_ other: StageTimings) {
        seconds.merge(other.seconds, uniquingKeysWith: +)
    }
}
