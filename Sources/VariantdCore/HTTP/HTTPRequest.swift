import Foundation
import Variants

/// One HTTP request as libmicrohttpd parsed it: its head (what `HTTPResponder.admit(_:)` sees, the body still
/// empty), then the whole of it, the body kept unless it was over the limit its head was given or could not
/// be stored.
struct HTTPRequest: Sendable {
    var method: String
    /// Percent-decoded, without the query.
    var path: String
    /// Path and query exactly as the client sent them, before any decoding: what a signed URL signs.
    var target: String
    /// Header names in lower case; a repeated header keeps its last value.
    var headers: [String: String]
    /// Query arguments, read for `POST` only (a job); empty on other requests.
    var query: [String: String]
    var body: RequestBody
    /// The body was over the limit and was not kept.
    var bodyTooLarge: Bool
    /// The body could not be kept (its spool file could not be made or written).
    var bodyUnstored: Bool = false
    /// Bytes of the request line and headers as received.
    var headSize = 0

    /// The media type of `Content-Type`, lower case, without parameters; nil when the header is absent.
    var mediaType: String? {
        headers["content-type"].map {
            String($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}

extension HTTPRequest {
    /// The method to route by: `HEAD` goes wherever `GET` does (RFC 9110 §9.1), and libmicrohttpd sends the
    /// `GET` answer's status and headers without its body.
    var routedMethod: String {
        method == "HEAD" ? "GET" : method
    }

    /// Refuses a target with an escaped NUL: libmicrohttpd decodes the path and the query values into C
    /// strings, which a NUL would end early, so `a.jpg%00.png` would be read as `a.jpg` — another object
    /// than the one named.
    ///
    /// - Throws: `400 invalid_request`.
    func checkNoNUL() throws(VariantsError) {
        let bytes = Array(target.utf8)
        let escapesNUL = bytes.indices.dropLast(2).contains {
            bytes[$0] == UInt8(ascii: "%") && bytes[$0 + 1] == UInt8(ascii: "0")
                && bytes[$0 + 2] == UInt8(ascii: "0")
        }
        guard !escapesNUL else {
            throw VariantsError(.invalidRequest, "the request target holds a NUL (%00)")
        }
    }

    /// Refuses a request whose body the server did not keep.
    ///
    /// - Throws: `413 payload_too_large` with `tooLarge` as its message when the body was over the limit;
    ///   the service's `503 transform_busy` when it could not be stored (its spool file could not be written:
    ///   the disk is full), a passing condition rather than the caller's fault.
    func checkBodyKept(tooLarge: @autoclosure () -> String) throws(AnswerError) {
        guard !bodyTooLarge else { throw .pipeline(VariantsError(.payloadTooLarge, tooLarge())) }
        guard !bodyUnstored else {
            throw .service(ServiceError(.transformBusy, "the request body cannot be stored now"))
        }
    }
}
