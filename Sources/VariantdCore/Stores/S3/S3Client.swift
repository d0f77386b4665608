import Foundation
import Variants

/// One object in a listing.
package struct S3Object: Sendable, Equatable {
    package var key: String
    var size: Int
    /// As the listing gives them: what tells one version of the object from another without a HEAD.
    var etag: String? = nil
    var lastModified: String? = nil
}

/// A client for one S3-compatible store: HEAD, GET, PUT and ListObjectsV2, each retried as `S3Retry`
/// says. Calls block their thread for the length of the transfer; connections are reused between calls.
package final class S3Client: Sendable {
    let configuration: S3Configuration
    private let transfer: CurlTransfer

    init(_ configuration: S3Configuration) {
        self.configuration = configuration
        transfer = CurlTransfer(timeouts: configuration.timeouts)
    }

    /// `Cache-Control` for keys named by their content: the bytes under such a key never change.
    static let immutable = "public, max-age=31536000, immutable"

    /// The size of an object, from a HEAD request.
    func size(bucket: String, key: String) throws(S3Error) -> Int {
        let outcome = try send(.head, bucket: bucket, key: key)
        guard let length = outcome.headers["content-length"].flatMap(Int.init) else {
            throw S3Error(.invalidResponse, "s3://\(bucket)/\(key)", "HEAD answered without a Content-Length")
        }
        return length
    }

    /// The object's version as a HEAD answers it: what decides whether bytes read earlier are still current.
    func identity(bucket: String, key: String) throws(S3Error) -> S3ObjectIdentity {
        let outcome = try send(.head, bucket: bucket, key: key)
        guard let identity = S3ObjectIdentity(headers: outcome.headers) else {
            throw S3Error(
                .invalidResponse, "s3://\(bucket)/\(key)",
                "HEAD answered without ETag, Last-Modified or Content-Length")
        }
        return identity
    }

    /// An object's bytes with the identity of the very version they are, from one GET, so that the two
    /// cannot belong to different writes. The GET is cut at `maxBytes` (`tooLarge`); no HEAD precedes it.
    func versioned(bucket: String, key: String, maxBytes: Int) throws(S3Error)
        -> (bytes: [UInt8], identity: S3ObjectIdentity)
    {
        let outcome = try send(.get, bucket: bucket, key: key, download: .memory(limit: maxBytes))
        guard let identity = S3ObjectIdentity(headers: outcome.headers, size: outcome.body.count) else {
            throw S3Error(
                .invalidResponse, "s3://\(bucket)/\(key)", "GET answered without ETag or Last-Modified")
        }
        return (outcome.body, identity)
    }

    /// An object's bytes from one GET, refused from its declared length before its body is read when it is
    /// larger than `maxBytes`, and cut at `maxBytes` whatever it declares.
    func read(bucket: String, key: String, maxBytes: Int) throws(S3Error) -> [UInt8] {
        try send(.get, bucket: bucket, key: key, download: .memory(limit: maxBytes)).body
    }

    /// An object's bytes from one GET (refused and cut at `maxBytes` as `read` does): in memory up to `threshold`
    /// bytes, or else in a file at `path`, created then.
    func fetch(bucket: String, key: String, maxBytes: Int, spillingPast threshold: Int, to path: String)
        throws(S3Error) -> Fetched
    {
        let outcome = try send(
            .get, bucket: bucket, key: key,
            download: .spilling(threshold: threshold, path: path, limit: maxBytes))
        return outcome.spilled ? .file(count: outcome.received) : .bytes(outcome.body)
    }

    enum Fetched {
        case bytes([UInt8])
        /// This many bytes were written to the file.
        case file(count: Int)
    }

    /// The SHA-256 of an object, hashed as one GET streams it and never held: for an object too large to be
    /// read whole.
    func checksum(bucket: String, key: String) throws(S3Error) -> String {
        let outcome = try send(.get, bucket: bucket, key: key, download: .digest)
        guard let checksum = outcome.sha256 else {
            throw S3Error(.invalidResponse, "s3://\(bucket)/\(key)", "GET answered without a body to hash")
        }
        return checksum
    }

    /// Stores bytes under a key, signed with their SHA-256 so that the store refuses a damaged upload. S3
    /// makes an object visible only once all of it is stored: a failed PUT leaves no partial object.
    func put(
        bucket: String, key: String, bytes: [UInt8], contentType: String, cacheControl: String? = nil
    ) throws(S3Error) {
        var headers = ["Content-Type: \(contentType)", "x-amz-content-sha256: \(SHA256.hex(bytes))"]
        if let cacheControl { headers.append("Cache-Control: \(cacheControl)") }
        _ = try send(.put, bucket: bucket, key: key, headers: headers, upload: .bytes(bytes))
    }

    /// Stores a file under a key, streamed from disk (`UNSIGNED-PAYLOAD`: not hashed first).
    package func put(
        bucket: String, key: String, file: String, contentType: String, cacheControl: String? = nil
    ) throws(S3Error) {
        let size: Int
        do {
            size = try (FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw S3Error(.localFile, file, "cannot be read")
        }
        var headers = ["Content-Type: \(contentType)", "x-amz-content-sha256: UNSIGNED-PAYLOAD"]
        if let cacheControl { headers.append("Cache-Control: \(cacheControl)") }
        _ = try send(.put, bucket: bucket, key: key, headers: headers, upload: .file(path: file, size: size))
    }

    /// Removes an object; removing one that is not there is not an error (S3 answers 204 either way).
    package func delete(bucket: String, key: String) throws(S3Error) {
        _ = try send(.delete, bucket: bucket, key: key)
    }

    /// Creates a bucket; one that exists already and is ours is not an error.
    package func createBucket(_ bucket: String) throws(S3Error) {
        do {
            _ = try send(.put, bucket: bucket, key: "", upload: .bytes([]))
        } catch  where error.kind == .rejected && error.message.contains("BucketAlreadyOwnedByYou") {
            return
        }
    }

    /// One page of ListObjectsV2 under `prefix`, and the token of the next page when there is one. Keys are
    /// asked for URL-encoded, since XML 1.0 cannot carry control characters (a store that ignores the request
    /// says so by leaving out `EncodingType`, and its keys are read as they are).
    func listPage(bucket: String, prefix: String, after token: String?, pageSize: Int = 1000)
        throws(S3Error) -> (objects: [S3Object], next: String?)
    {
        var query = [
            ("encoding-type", "url"), ("list-type", "2"), ("max-keys", String(pageSize)), ("prefix", prefix),
        ]
        if let token { query.append(("continuation-token", token)) }
        let outcome = try send(
            .get, bucket: bucket, key: "", query: query, download: .memory(limit: 64 << 20))
        let document = S3Document(outcome.body)
        let encoded = document.value("EncodingType") == "url"
        var objects: [S3Object] = []
        for entry in document.blocks("Contents") {
            guard let key = entry.value("Key").flatMap({ encoded ? S3Encoding.listedKey($0) : $0 }),
                let size = entry.value("Size").flatMap(Int.init)
            else {
                throw S3Error(
                    .invalidResponse, "s3://\(bucket)/\(prefix)", "a listing entry without Key or Size")
            }
            objects.append(
                S3Object(
                    key: key, size: size, etag: entry.value("ETag"), lastModified: entry.value("LastModified")
                ))
        }
        let truncated = document.value("IsTruncated") == "true"
        let next = truncated ? document.value("NextContinuationToken") : nil
        if truncated && next == nil {
            throw S3Error(
                .invalidResponse, "s3://\(bucket)/\(prefix)", "a truncated listing without a next token")
        }
        return (objects, next)
    }

    /// Every object under `prefix`, page after page, handed to `body` in key order.
    package func list(bucket: String, prefix: String, pageSize: Int = 1000, _ body: ([S3Object]) -> Void)
        throws(S3Error)
    {
        var token: String? = nil
        repeat {
            let page = try listPage(bucket: bucket, prefix: prefix, after: token, pageSize: pageSize)
            body(page.objects)
            token = page.next
        } while token != nil
    }

    /// One request, retried on network errors, 5xx, 429 and the transient codes of `S3Retry`; any other
    /// answer is final, and so is a store that cannot be used as configured (a TLS certificate that does not
    /// verify).
    private func send(
        _ method: HTTPExchange.Method, bucket: String, key: String, query: [(String, String)] = [],
        headers: [String] = [], upload: HTTPExchange.Upload = .none,
        download: HTTPExchange.Download = .memory(limit: 1 << 20)
    ) throws(S3Error) -> HTTPOutcome {
        let subject = key.isEmpty ? "s3://\(bucket)" : "s3://\(bucket)/\(key)"
        var exchange = HTTPExchange(
            method: method, url: configuration.url(bucket: bucket, key: key, query: query), headers: headers,
            upload: upload, download: download)
        if !headers.contains(where: { $0.hasPrefix("x-amz-content-sha256:") }) {
            exchange.headers.append("x-amz-content-sha256: \(Self.emptyPayload)")
        }
        if let token = configuration.sessionToken {
            exchange.headers.append("x-amz-security-token: \(token)")
        }
        let signing = SigV4Signing(
            accessKey: configuration.accessKey, secretKey: configuration.secretKey,
            region: configuration.region)
        let operation: S3Traffic.Operation =
            switch method {
            case .get: key.isEmpty ? .list : .get
            case .head: .head
            case .put: .put
            case .post: .post
            case .delete: .delete
            }
        let budget = configuration.retryBudget
        var tries = 0
        return try configuration.retry.runBlocking(budget: budget) {
            () -> RetrySchedule.Step<Result<HTTPOutcome, S3Error>> in
            tries += 1
            let result = perform(
                exchange, signing: signing, operation: operation, method: method, subject: subject)
            guard case .failure(let failure) = result else {
                budget.earn(retries: tries - 1)
                return .done(result)
            }
            return failure.kind == .unavailable ? .retry(result) : .done(result)
        }.get()
    }

    /// One try of a request: its answer when 2xx, else the error it makes.
    private func perform(
        _ exchange: HTTPExchange, signing: SigV4Signing, operation: S3Traffic.Operation,
        method: HTTPExchange.Method, subject: String
    ) -> Result<HTTPOutcome, S3Error> {
        do {
            let outcome = try transfer.perform(exchange, signing: signing)
            S3Traffic.shared.count(operation, receivedBytes: outcome.received)
            if (200..<300).contains(outcome.status) { return .success(outcome) }
            return .failure(Self.error(outcome, method: method, subject: subject))
        } catch {
            return .failure(Self.error(error, subject: subject))
        }
    }

    /// SHA-256 of no bytes: the payload hash of a GET, HEAD or empty PUT.
    private static let emptyPayload = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Classifies a request that got no answer: a network error is an outage like a 5xx.
    private static func error(_ failure: TransferFailure, subject: String) -> S3Error {
        switch failure {
        case .network(let message): S3Error(.unavailable, subject, message)
        case .misconfigured(let message): S3Error(.configuration, subject, message)
        case .overLimit(let limit, let declared?):
            S3Error(.tooLarge, subject, "the object is \(declared) bytes, over the limit of \(limit)")
        case .overLimit(let limit, nil):
            S3Error(.tooLarge, subject, "the object grew past the limit of \(limit) bytes")
        case .localFile(let message): S3Error(.localFile, subject, message)
        }
    }

    /// Classifies a non-2xx answer by status and the error document's `Code` (HEAD answers have none).
    private static func error(_ outcome: HTTPOutcome, method: HTTPExchange.Method, subject: String) -> S3Error
    {
        let document = S3Document(outcome.body)
        let code = document.value("Code")
        let detail = [code, document.value("Message")].compactMap { $0 }.joined(separator: ": ")
        let said = detail.isEmpty ? "HTTP \(outcome.status)" : "HTTP \(outcome.status) \(detail)"
        switch outcome.status {
        case 404 where code == "NoSuchBucket":
            return S3Error(.denied, subject, "\(said): the bucket does not exist")
        case 404:
            return S3Error(.notFound, subject, "no such object (\(said))")
        case 401, 403:
            return S3Error(
                .denied, subject,
                "\(said): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and the bucket's policy")
        case 429, 500...599:
            return S3Error(.unavailable, subject, said)
        default:
            return code.map(S3Retry.transientCodes.contains) == true
                ? S3Error(.unavailable, subject, said) : S3Error(.rejected, subject, said)
        }
    }
}
