import Foundation
import FoundationNetworking

/// The daemon's requests to object storage so far, and the render requests it answered, from its `/metrics`:
/// what a phase of the render benchmark cost the store is the difference of two readings. The phase's
/// requests are counted by the daemon too, since a load generator stopping mid-request does not count the
/// requests its connections still had in flight, which the daemon answers all the same.
struct StoreRequests: Sendable, Equatable {
    /// Render requests answered, by outcome (`hit`, `miss`, `shared`, `failed`, …).
    var answers: [String: Int] = [:]
    /// Requests object storage answered, by operation (`head`, `get`, `put`, `list`, `delete`).
    var requests: [String: Int] = [:]
    /// Body bytes those requests brought back.
    var receivedBytes = 0
    /// Render requests arrived and not yet answered when read.
    var inFlight = 0

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Answered as a hit.
    var hits: Int { answers["hit", default: 0] }
    /// Answered as a miss: rendered, or sharing another request's render.
    var misses: Int { answers["miss", default: 0] + answers["shared", default: 0] }
    /// Answered otherwise (refused, failed, not modified): counted apart, since most make no store request
    /// and would lower the figure per hit or per miss.
    var otherAnswers: Int { answers.values.reduce(0, +) - hits - misses }

    /// From the Prometheus text of `/metrics`; a family the daemon has not shown yet counts 0.
    init(metrics text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]) else { continue }
            let name = parts[0]
            if let outcome = Self.label("outcome", of: name, in: "variantd_render_requests_total") {
                answers[outcome, default: 0] += value
            } else if let operation = Self.label("operation", of: name, in: "variantd_s3_requests_total") {
                requests[operation, default: 0] += value
            } else if name == "variantd_s3_received_bytes_total" {
                receivedBytes = value
            } else if name == "variantd_render_requests_in_flight" {
                inFlight = value
            }
        }
    }

    init() {}

    /// The value of `label` in a sample of `family` (`family{label="value",…}`), nil for other samples.
    private static func label(_ label: String, of sample: Substring, in family: String) -> String? {
        guard sample.hasPrefix(family + "{"), let start = sample.range(of: label + "=\"") else { return nil }
        return String(sample[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Reads the `/metrics` of the daemon at `base` until no render request is in flight: every store
    /// request of the phase's requests is counted by then, and no answer is counted without its own.
    static func settled(from base: URL) async throws -> StoreRequests {
        for _ in 0..<600 {
            let reading = try await read(from: base)
            if reading.inFlight == 0 { return reading }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Failure(description: "\(base) kept render requests in flight for 30 s after the load stopped")
    }

    private static func read(from base: URL) async throws -> StoreRequests {
        let (data, answer) = try await URLSession.shared.data(from: base.appendingPathComponent("metrics"))
        guard (answer as? HTTPURLResponse)?.statusCode == 200 else {
            throw Failure(description: "\(base)/metrics did not answer 200")
        }
        return StoreRequests(metrics: String(decoding: data, as: UTF8.self))
    }

    /// What was counted between `earlier` and this reading.
    func since(_ earlier: StoreRequests) -> StoreRequests {
        combined(with: earlier, sign: -1)
    }

    /// Both counts together.
    func adding(_ other: StoreRequests) -> StoreRequests {
        combined(with: other, sign: 1)
    }

    private func combined(with other: StoreRequests, sign: Int) -> StoreRequests {
        var result = self
        result.answers.merge(other.answers.mapValues { $0 * sign }, uniquingKeysWith: +)
        result.requests.merge(other.requests.mapValues { $0 * sign }, uniquingKeysWith: +)
        result.receivedBytes += sign * other.receivedBytes
        result.inFlight = 0
        return result
    }
}
