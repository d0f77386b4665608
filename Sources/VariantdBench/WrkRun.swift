import Foundation

/// One run of Debian's `wrk` against a URL: the load generator of `bench --serve --render`, a C client on
/// its own core that keeps every connection busy, so that the server, not the client, is measured.
struct WrkRun: Sendable {
    static let executable = "/usr/bin/wrk"

    var url: String
    var connections: Int
    var seconds: Int
    /// The core wrk is pinned to; nil leaves it to the scheduler.
    var core: Int?

    /// What wrk reported.
    struct Result: Sendable, Equatable {
        var requests: Int
        var requestsPerSecond: Double
        /// Latency percentiles, in seconds.
        var p50: Double
        var p99: Double
        /// Answers other than 2xx or 3xx, and connect, read, write and timeout errors.
        var failures: Int

        /// Several runs of one load as one: each figure the median of the runs' (the upper one of an even
        /// count), requests and failures summed.
        static func median(of runs: [Result]) -> Result {
            func median(_ figure: (Result) -> Double) -> Double {
                let sorted = runs.map(figure).sorted()
                return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            }
            return Result(
                requests: runs.map(\.requests).reduce(0, +), requestsPerSecond: median(\.requestsPerSecond),
                p50: median(\.p50), p99: median(\.p99), failures: runs.map(\.failures).reduce(0, +))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Runs wrk with one thread (one core) and `--latency`, and parses what it printed.
    func run() throws -> Result {
        let (executable, arguments) = CorePinning.command(
            Self.executable,
            ["-t1", "-c\(connections)", "-d\(seconds)s", "--timeout", "10s", "--latency", url], core: core)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "wrk exited \(process.terminationStatus): \(text)")
        }
        return try Self.parse(text)
    }

    /// wrk's report: `N requests in …`, `Requests/sec:`, the `--latency` distribution's 50% and 99% lines,
    /// and the error lines it prints only when there were errors.
    static func parse(_ output: String) throws -> Result {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func fields(after prefix: String) -> [Substring]? {
            lines.first { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).split(separator: " ") }
        }
        guard
            let requests = lines.first(where: { $0.contains(" requests in ") }).flatMap({
                Int($0.prefix { $0 != " " })
            }),
            let rate = fields(after: "Requests/sec:")?.first.flatMap({ Double($0) }),
            let p50 = fields(after: "50%")?.first.flatMap(seconds),
            let p99 = fields(after: "99%")?.first.flatMap(seconds)
        else { throw Failure(description: "wrk's output could not be read:\n\(output)") }
        var failures = fields(after: "Non-2xx or 3xx responses:")?.first.flatMap { Int($0) } ?? 0
        if let errors = fields(after: "Socket errors:") {
            failures += errors.compactMap { Int($0.filter(\.isNumber)) }.reduce(0, +)
        }
        return Result(requests: requests, requestsPerSecond: rate, p50: p50, p99: p99, failures: failures)
    }

    /// `812.00us`, `1.25ms`, `2.00s`, `1.00m` in seconds.
    private static func seconds(_ text: Substring) -> Double? {
        for (unit, scale) in [("us", 1e-6), ("ms", 1e-3), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(unit)
        {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }
}
