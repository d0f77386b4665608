import Foundation
import FoundationNetworking

/// The daemon's requests to object storage so far, and the render requests it answered, from its `/metrics`:
/// what a phase of the render benchmark cost the store is the difference of two readings. The phase's
/// requests are counted by the daemon too, since a load generator stopping mid-request does not count the
/// requests its connections still had in flight, which the daemon answers all the same.
struct StoreRequests: Sendable, Equatable {
    /// Render requests answered, whatever their outcome.
    var renders = 0
    var head = 0
    var get = 0
    var put = 0
    var list = 0
    var receivedBytes = 0

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// From the Prometheus text of `/metrics`; a family the daemon has not shown yet counts 0.
    init(metrics text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]) else { continue }
            if parts[0].hasPrefix("variantd_render_requests_total{") {
                renders += value
                continue
            }
            switch parts[0] {
            case #"variantd_s3_requests_total{operation="head"}"#: head = value
            case #"variantd_s3_requests_total{operation="get"}"#: get = value
            case #"variantd_s3_requests_total{operation="put"}"#: put = value
            case #"variantd_s3_requests_total{operation="list"}"#: list = value
            case "variantd_s3_received_bytes_total": receivedBytes = value
            default: continue
            }
        }
    }

    init() {}

    /// Reads the `/metrics` of the daemon at `base` until two readings in a row agree: the requests in
    /// flight when the phase ended have been answered by then.
    static func settled(from base: URL) async throws -> StoreRequests {
        var last = try await read(from: base)
        for _ in 0..<100 {
            let next = try await read(from: base)
            if next == last { break }
            last = next
        }
        return last
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
        var change = StoreRequests()
        change.renders = renders - earlier.renders
        change.head = head - earlier.head
        change.get = get - earlier.get
        change.put = put - earlier.put
        change.list = list - earlier.list
        change.receivedBytes = receivedBytes - earlier.receivedBytes
        return change
    }

    /// Both counts together.
    func adding(_ other: StoreRequests) -> StoreRequests {
        var sum = self
        sum.renders += other.renders
        sum.head += other.head
        sum.get += other.get
        sum.put += other.put
        sum.list += other.list
        sum.receivedBytes += other.receivedBytes
        return sum
    }
}
