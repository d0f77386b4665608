/// A Prometheus histogram of seconds: cumulative counts per upper bound, a sum and a count.
struct Histogram: Sendable {
    /// From 5 ms (a sniff) to 60 s (the default deadline).
    static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    private(set) var counts = [Int](repeating: 0, count: Histogram.bounds.count)
    private(set) var sum = 0.0
    private(set) var count = 0

    mutating func observe(_ seconds: Double) {
        for (index, bound) in Self.bounds.enumerated() where seconds <= bound {
            counts[index] += 1
        }
        sum += seconds
        count += 1
    }

    /// The `_bucket`, `_sum` and `_count` lines, with `labels` (`stage="decode"`) on each.
    func lines(_ name: String, labels: String) -> [String] {
        let prefix = labels.isEmpty ? "" : labels + ","
        let suffix = labels.isEmpty ? "" : "{\(labels)}"
        var lines = zip(Self.bounds, counts).map { bound, count in
            "\(name)_bucket{\(prefix)le=\"\(bound)\"} \(count)"
        }
        lines.append("\(name)_bucket{\(prefix)le=\"+Inf\"} \(count)")
        lines.append("\(name)_sum\(suffix) \(sum)")
        lines.append("\(name)_count\(suffix) \(count)")
        return lines
    }
}
