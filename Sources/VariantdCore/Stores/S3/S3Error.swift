package import Variants

/// Why an object-storage operation failed, naming the object or location it was about. Never holds a
/// secret: messages are built from locations, status codes and the server's error code and message.
package struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: String, Sendable {
        /// No object under that key (404).
        case notFound = "not_found"
        /// The object is larger than the limit; found from its size, before its bytes are read.
        case tooLarge = "too_large"
        /// The credentials were refused or the bucket is not ours (401, 403, or a missing bucket).
        case denied
        /// The store did not answer, or answered 5xx, 429 or a transient code (`SlowDown`,
        /// `RequestTimeout`), after every retry.
        case unavailable
        /// Another 4xx: a request the store will refuse however often it is sent.
        case rejected
        /// The environment or a location does not describe a usable store.
        case configuration
        /// The store answered something we could not read.
        case invalidResponse = "invalid_response"
        /// A local file taking part in a transfer could not be read or written.
        case localFile = "local_file"
    }

    var kind: Kind
    /// `s3://bucket/key`, or the location or variable the error is about.
    var subject: String
    var message: String

    init(_ kind: Kind, _ subject: String, _ message: String) {
        self.kind = kind
        self.subject = subject
        self.message = message
    }

    package var description: String { "\(subject): \(message)" }

    /// Whether the same request may succeed later without anything changing on our side.
    var isStoreOutage: Bool { kind == .unavailable }

    /// The answer a caller of variantd gets. A store that is down is `store_unavailable` (the daemon answers
    /// `503 transform_busy` with `Retry-After`, the queue waits it out);
    /// refused credentials are `500 internal_error` naming the location, never a picture's fault.
    package var variantsError: VariantsError {
        switch kind {
        case .notFound: VariantsError(.notFound, description)
        case .tooLarge: VariantsError(.payloadTooLarge, description)
        case .unavailable: VariantsError(.storeUnavailable, "object storage unavailable: \(description)")
        case .denied: VariantsError(.internalError, "object storage refused access: \(description)")
        case .rejected, .configuration, .invalidResponse, .localFile:
            VariantsError(.internalError, "object storage: \(description)")
        }
    }
}
