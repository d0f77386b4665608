/// The largest request head the HTTP server takes, nginx's defaults: past them a request is answered from
/// its head alone, in the wire error shape, `414 uri_too_long` or `431 header_fields_too_large`.
///
/// A head over libmicrohttpd's memory per connection is answered by libmicrohttpd itself, with the same codes
/// and shape (our patch, `scripts/patches/microhttpd-json-errors.patch`) but a message that cannot name these
/// limits; the server gives it `connectionMemory`, room for heads far past them, so that these decide.
struct HeadLimits: Sendable {
    /// libmicrohttpd's memory per connection: a head up to about 200 KB reaches the limits below. Our
    /// libmicrohttpd does not zero it as it frees it, between two requests of a connection or before an
    /// answer, so its size costs no request (`scripts/patches/microhttpd-pool-no-zeroing.patch`).
    static let connectionMemory = 256 << 10

    /// Bytes of the request target, path and query, as sent.
    var target = 8 << 10
    /// Bytes of the request line and every header line together.
    var head = 32 << 10

    /// The answer to a head over a limit; nil when it is within both.
    func refusal(of request: HTTPRequest) -> HTTPResponse? {
        if request.target.utf8.count > target {
            let message = "the request target is over \(target) bytes"
            return .error(.service(ServiceError(.uriTooLong, message)))
        }
        if request.headSize > head {
            let message = "the request line and headers are over \(head) bytes together"
            return .error(.service(ServiceError(.headerFieldsTooLarge, message)))
        }
        return nil
    }
}
