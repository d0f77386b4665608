import Foundation

/// Posts a final job to the storage server's callback URL, signed and retried, through libcurl like every
/// other request the product sends.
///
/// The body is the job's JSON. `Variantd-Signature: sha256=<hex>` is the HMAC-SHA256 of
/// `"<Variantd-Timestamp>.<body>"` under the shared secret; `Idempotency-Key: variantd-job-<id>` is the same
/// on every retry and every worker, so the receiver accepts a repeat as a no-op.
struct CallbackReporter: Sendable {
    let url: URL
    let secret: [UInt8]?
    /// 5 tries, 0.5, 1, 2 and 4 s apart.
    let schedule = RetrySchedule(tries: 5, first: .milliseconds(500), cap: .seconds(4))
    /// A receiver gets 10 s to accept the connection, and is cut off after 10 s under 1 KiB/s.
    private let transfer = CurlTransfer(timeouts: CurlTransfer.Timeouts(connect: 10, stalled: 10))

    init(url: URL, secret: [UInt8]?) {
        self.url = url
        self.secret = secret
    }

    /// The reporter `--callback URL [--callback-secret-file FILE]` ask for; nil without `--callback`.
    init?(url text: String?, secretFile: String?) throws(UsageError) {
        guard let text else {
            if secretFile != nil { throw UsageError("'--callback-secret-file' needs '--callback'") }
            return nil
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else {
            throw UsageError("'--callback' takes an http:// or https:// URL, got '\(text)'")
        }
        let secret = try secretFile.map { path throws(UsageError) in
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else {
                throw UsageError("The callback secret file '\(path)' cannot be read or is empty")
            }
            return [UInt8](
                String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        }
        self.init(url: url, secret: secret)
    }

    /// Whether the receiver acknowledged the job with a 2xx answer within the tries; a cancelled task (the
    /// worker stopping its sweep) makes no further try, and a request in flight ends on its own timeouts.
    func report(_ job: Job) async -> Bool {
        guard let body = try? WireJSON.encode(job) else { return false }
        return await schedule.run { await post(body, job: job) ? .done(true) : .retry(false) }
    }

    private func post(_ body: [UInt8], job: Job) async -> Bool {
        let timestamp = String(Timestamp.now.milliseconds / 1000)
        var headers = [
            "Content-Type: application/json", "Variantd-Job-Id: \(job.id)",
            "Idempotency-Key: variantd-job-\(job.id)", "Variantd-Timestamp: \(timestamp)",
        ]
        if let secret {
            let signature = HMAC.sha256Hex(key: secret, message: Array((timestamp + ".").utf8) + body)
            headers.append("Variantd-Signature: sha256=\(signature)")
        }
        let exchange = HTTPExchange(
            method: .post, url: url.absoluteString, headers: headers, upload: .bytes(body),
            download: .digest)
        let transfer = transfer
        let answer = await Blocking.run { () throws(TransferFailure) in
            try transfer.perform(exchange, signing: nil)
        }
        guard case .success(let outcome) = answer else { return false }
        return (200..<300).contains(outcome.status)
    }
}
