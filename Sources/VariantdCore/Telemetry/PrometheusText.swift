/// Metrics in the Prometheus text format 0.0.4, one family at a time: what the daemon's and the worker's
/// `GET /metrics` both answer.
struct PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private var lines: [String] = []

    /// A family: its help and type lines, then its samples (`name{labels} value`).
    mutating func family(_ name: String, _ type: String, _ help: String, _ samples: [String]) {
        lines += ["# HELP \(name) \(help)", "# TYPE \(name) \(type)"] + samples
    }

    /// A family of one sample without labels.
    mutating func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
        family(name, type, help, ["\(name) \(value)"])
    }

    var text: String { lines.joined(separator: "\n") + "\n" }
}
