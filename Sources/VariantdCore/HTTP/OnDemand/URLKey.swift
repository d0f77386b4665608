import Foundation

/// The key render URLs of private buckets are signed with: `expires=<unix seconds>` and, last,
/// `signature=<base64url, unpadded, of HMAC-SHA256(key, S)>`, where S is the request target as sent up to,
/// not including, `&signature=`.
struct URLKey: Sendable {
    private let bytes: [UInt8]

    /// Shorter keys are refused: a signature is only as strong as the key behind it.
    static let minimumLength = 16

    /// Reads the key from a file; surrounding whitespace is not part of it.
    init(file path: String) throws(UsageError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("The URL key file '\(path)' cannot be read")
        }
        let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard key.utf8.count >= Self.minimumLength else {
            throw UsageError("The URL key must be at least \(Self.minimumLength) bytes")
        }
        bytes = Array(key.utf8)
    }

    /// The target with `expires` and `signature` appended, ready to hand out.
    func sign(_ target: String, expires: Int) -> String {
        let signed = target + (target.contains("?") ? "&" : "?") + "expires=\(expires)"
        return signed + "&signature=" + signature(of: signed)
    }

    /// Whether the target carries a valid, unexpired signature by this key; `expires` is the decoded value
    /// of the `expires` parameter, nil when absent.
    ///
    /// - Throws: `403 forbidden` saying which check failed.
    func check(_ target: String, expires: String?, now: Int) throws(ServiceError) {
        guard let marker = target.range(of: "&signature=", options: .backwards) else {
            throw ServiceError(.forbidden, "the bucket is private: send a bearer secret or a signed URL")
        }
        let given = Array(target[marker.upperBound...].utf8)
        let expected = Array(signature(of: String(target[..<marker.lowerBound])).utf8)
        // Whatever followed a right signature would be read as options, a later `expires` among them.
        guard ConstantTime.equal(given, expected) else {
            throw ServiceError(.forbidden, "the URL's signature does not match (signature must come last)")
        }
        guard let expires, let seconds = Int(expires) else {
            throw ServiceError(.forbidden, "a signed URL needs expires=<unix seconds>")
        }
        guard now <= seconds else { throw ServiceError(.forbidden, "the signed URL has expired") }
    }

    private func signature(of signed: String) -> String {
        Data(HMAC.sha256(key: bytes, message: Array(signed.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
