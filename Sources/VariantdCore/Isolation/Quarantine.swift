/// Files that killed decoders, by SHA-256: how many attempts each has cost. Bounded, so a flood of distinct
/// crashing files cannot grow the parent without limit; the oldest entries go first.
struct Quarantine {
    static let capacity = 10_000

    private var failures: [String: Int] = [:]
    private var order: [String] = []

    var isEmpty: Bool { failures.isEmpty }

    mutating func recordFailure(_ checksum: String) {
        if failures[checksum] == nil {
            order.append(checksum)
            if order.count > Self.capacity { failures[order.removeFirst()] = nil }
        }
        failures[checksum, default: 0] += 1
    }

    /// Whether the file has failed `attempts` times already.
    func isRefused(_ checksum: String, after attempts: Int) -> Bool {
        failures[checksum, default: 0] >= attempts
    }
}
