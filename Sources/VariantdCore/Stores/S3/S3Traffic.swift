import Synchronization

/// Every request of this process that object storage answered, by operation, and the bytes the answers carried:
/// what the store bills for, and what shows whether a hit still downloads its source. Process-wide, since
/// each store location has a client of its own.
package final class S3Traffic: Sendable {
    package static let shared = S3Traffic()

    /// What a request did; a listing is a GET of the bucket, told apart here.
    package enum Operation: String, CaseIterable, Sendable {
        case head, get, put, post, delete, list
    }

    private let requests = Mutex<[Operation: Int]>([:])
    private let received = Atomic<Int>(0)

    /// Counts one request sent (each retry is one) and the body bytes its answer carried.
    func count(_ operation: Operation, receivedBytes: Int) {
        requests.withLock { $0[operation, default: 0] += 1 }
        received.add(receivedBytes, ordering: .relaxed)
    }

    /// Requests so far by operation, each operation listed once it has been sent.
    package var requestCounts: [Operation: Int] { requests.withLock { $0 } }

    package var receivedBytes: Int { received.load(ordering: .relaxed) }
}

extension PrometheusText {
    /// The object-storage families, once the process has sent a request there: a process on folders only
    /// shows none.
    mutating func objectStorage(_ traffic: S3Traffic) {
        let counts = traffic.requestCounts
        guard !counts.isEmpty else { return }
        family(
            "variantd_s3_requests_total", "counter",
            "Requests answered by object storage (each retry counts), by operation (head, get, put, post, delete, list).",
            S3Traffic.Operation.allCases.compactMap { operation in
                counts[operation].map {
                    "variantd_s3_requests_total{operation=\"\(operation.rawValue)\"} \($0)"
                }
            })
        single(
            "variantd_s3_received_bytes_total", "counter", "Body bytes of object storage's answers.",
            traffic.receivedBytes)
        single(
            "variantd_s3_retries_refused_total", "counter",
            "Retries of object storage requests not made because the process's retry budget was spent "
                + "(each retry costs 5 of 500 tokens, answers earn them back).",
            RetryBudget.objectStorage.refusedRetries)
    }
}
