import Foundation

/// How to reach object storage, read from the environment the way the AWS tools read it.
///
/// The secret key and session token are kept out of `description` and every error message.
struct S3Configuration: Sendable, CustomStringConvertible {
    /// Where the bucket goes in a request URL.
    enum Addressing: String, Sendable {
        /// `https://endpoint/bucket/key`: what S3-compatible servers (SeaweedFS, MinIO, Ceph) expect.
        case path
        /// `https://bucket.endpoint/key`: AWS's default.
        case virtual
    }

    var accessKey: String
    var secretKey: String
    var sessionToken: String?
    var region: String
    /// `scheme://host[:port]`, without a path.
    var endpoint: String
    var addressing: Addressing
    var timeouts = CurlTransfer.Timeouts()
    var retry = S3Retry.schedule
    /// What every retry is paid from: one budget for the whole process.
    var retryBudget = RetryBudget.objectStorage

    /// Reads `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION` (else
    /// `AWS_DEFAULT_REGION`, else `us-east-1`), `AWS_ENDPOINT_URL_S3` (else `AWS_ENDPOINT_URL`, else AWS's
    /// regional endpoint) and `VARIANTD_S3_ADDRESSING` (`path` by default for a custom endpoint).
    init(environment: [String: String]) throws(S3Error) {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let accessKey = value("AWS_ACCESS_KEY_ID"), let secretKey = value("AWS_SECRET_ACCESS_KEY")
        else {
            throw S3Error(
                .configuration, "AWS_ACCESS_KEY_ID",
                "object storage needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
        }
        self.accessKey = accessKey
        self.secretKey = secretKey
        sessionToken = value("AWS_SESSION_TOKEN")
        region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        guard
            region.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || (48...57).contains($0) || (97...122).contains($0)
            })
        else {
            throw S3Error(
                .configuration, "AWS_REGION", "expected a region such as eu-west-1, got '\(region)'")
        }
        let custom = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL")
        if let custom {
            guard let components = URLComponents(string: custom),
                let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
                components.path.isEmpty || components.path == "/", components.query == nil,
                components.user == nil, components.password == nil
            else {
                // The refusal goes to logs: a user and password in the value are left out of it.
                var shown = URLComponents(string: custom)
                shown?.user = nil
                shown?.password = nil
                throw S3Error(
                    .configuration, "AWS_ENDPOINT_URL_S3",
                    "expected http(s)://HOST[:PORT] without a path or credentials, got "
                        + (shown?.string.map { "'\($0)'" } ?? "a value that is not a URL"))
            }
            endpoint = "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
        } else {
            endpoint = "https://s3.\(region).amazonaws.com"
        }
        switch value("VARIANTD_S3_ADDRESSING") {
        case nil: addressing = custom == nil ? .virtual : .path
        case let text?:
            guard let chosen = Addressing(rawValue: text) else {
                throw S3Error(
                    .configuration, "VARIANTD_S3_ADDRESSING", "expected 'path' or 'virtual', got '\(text)'")
            }
            addressing = chosen
        }
    }

    /// The URL of an object (`key` non-empty) or of the bucket itself, keys encoded as SigV4 requires.
    func url(bucket: String, key: String = "", query: [(String, String)] = []) -> String {
        let path = key.isEmpty ? "" : "/" + S3Encoding.path(key)
        let base: String
        switch addressing(for: bucket) {
        case .path:
            base = "\(endpoint)/\(bucket)\(path.isEmpty && !query.isEmpty ? "/" : path)"
        case .virtual:
            let schemeEnd = endpoint.range(of: "://")!.upperBound
            base = "\(endpoint[..<schemeEnd])\(bucket).\(endpoint[schemeEnd...])\(path.isEmpty ? "/" : path)"
        }
        return query.isEmpty ? base : base + "?" + S3Encoding.query(query)
    }

    /// Path-style for a bucket whose name has dots on https, whatever `addressing` says, as the AWS SDKs do:
    /// a wildcard certificate (`*.s3.REGION.amazonaws.com`) covers one label, so `my.bucket.s3…` would
    /// fail to verify on every request.
    func addressing(for bucket: String) -> Addressing {
        addressing == .virtual && bucket.contains(".") && endpoint.hasPrefix("https://") ? .path : addressing
    }

    var description: String {
        "endpoint \(endpoint), region \(region), \(addressing.rawValue)-style, access key \(accessKey)"
    }
}
