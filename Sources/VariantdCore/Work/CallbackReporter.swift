import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Posts a final job to the storage server's callback URL, signed and retried.
///
/// The body is the job's JSON. `Variantd-Signature: sha256=<hex>` is the HMAC-SHA256 of
/// `"<Variantd-Timestamp>.<body>"` under the shared secret; `Idempotency-Key: variantd-job-<id>` is the same
/// on every retry and every worker, so the receiver accepts a repeat as a no-op.
struct CallbackReporter: Sendable {
    let url: URL
    let secret: [UInt8]?
    var tries = 5
    var firstDelay: Duration = .milliseconds(500)

    /// Whether the receiver acknowledged the job with a 2xx answer within the tries; a cancelled task (the
    /// worker stopping its sweep) makes no further try.
    func report(_ job: Job) async -> Bool {
        guard let body = try? WireJSON.encode(job) else { return false }
        var delay = firstDelay
        for attempt in 1...tries {
            if await post(body, job: job) { return true }
            guard attempt < tries else { break }
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { break }
            delay *= 2
        }
        return false
    }

    private func post(_ body: [UInt8], job: Job) async -> Bool {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = Data(body)
        let timestamp = String(Timestamp.now.milliseconds / 1000)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(String(job.id), forHTTPHeaderField: "Variantd-Job-Id")
        request.setValue("variantd-job-\(job.id)", forHTTPHeaderField: "Idempotency-Key")
        request.setValue(timestamp, forHTTPHeaderField: "Variantd-Timestamp")
        if let secret {
            let signature = HMAC.sha256Hex(key: secret, message: Array((timestamp + ".").utf8) + body)
            request.setValue("sha256=\(signature)", forHTTPHeaderField: "Variantd-Signature")
        }
        // Apart from the caller's task, so a stop never cancels a request in flight: FoundationNetworking on
        // Linux traps when a request is cancelled just as its connection fails, which ended the worker with
        // SIGILL. The request ends on its own, within its timeout.
        let answer = await Task { try? await URLSession.shared.data(for: request) }.value
        guard let (_, response) = answer, let status = (response as? HTTPURLResponse)?.statusCode
        else { return false }
        return (200..<300).contains(status)
    }
}
