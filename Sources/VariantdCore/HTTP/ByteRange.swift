/// One part of a representation asked for with `Range` (RFC 9110 §14): its first byte and its length.
///
/// Clients resume downloads and players seek with it; a single range is answered `206`, a set of several
/// with the whole representation (§14.2 lets a server ignore `Range`), which spares a multipart body.
struct ByteRange: Sendable, Equatable {
    var offset: Int
    var length: Int

    /// What a request's `Range` and `If-Range` come to for one representation.
    enum Answer: Sendable, Equatable {
        /// The whole representation, `200`: no `Range`, one this server ignores (another unit, bad syntax,
        /// several ranges), or an `If-Range` that does not hold.
        case whole
        /// `206` with this part.
        case part(ByteRange)
        /// `416`: no byte of the representation is in the range.
        case unsatisfiable
    }

    /// `Content-Range` of this part of a representation of `size` bytes.
    func contentRange(of size: Int) -> String {
        "bytes \(offset)-\(offset + length - 1)/\(size)"
    }

    /// `Content-Range` of a `416`: the representation's size only.
    static func unsatisfiedRange(of size: Int) -> String {
        "bytes */\(size)"
    }

    /// The answer to a request's `Range` and `If-Range`: only a `GET`'s (and so a `HEAD`'s, answered like
    /// it) are read, as §14.2 asks.
    static func answer(to request: HTTPRequest, tag: String, size: Int) -> Answer {
        guard request.routedMethod == "GET" else { return .whole }
        return answer(
            range: request.headers["range"], ifRange: request.headers["if-range"], tag: tag, size: size)
    }

    /// The answer to `range` and `ifRange` for a representation of `size` bytes whose strong `ETag` is `tag`.
    ///
    /// `If-Range` holds only for the same strong tag (§13.1.5: compared strongly); a weak tag, another tag
    /// or a date (this server sends no `Last-Modified`) asks for the whole representation.
    static func answer(range: String?, ifRange: String?, tag: String, size: Int) -> Answer {
        guard let range else { return .whole }
        if let ifRange, ifRange.trimmed != tag { return .whole }
        let value = range.trimmed
        guard let equals = value.firstIndex(of: "="),
            value[..<equals].trimmed.lowercased() == "bytes"
        else { return .whole }
        let specs = value[value.index(after: equals)...].split(separator: ",").map(\.trimmed).filter {
            !$0.isEmpty
        }
        guard specs.count == 1, let spec = specs.first, let dash = spec.firstIndex(of: "-") else {
            return .whole
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            let length = min(suffix, size)
            return .part(ByteRange(offset: size - length, length: length))
        }
        guard let start = number(first) else { return .whole }
        let end: Int
        if last.isEmpty {
            end = .max
        } else {
            guard let value = number(last), value >= start else { return .whole }
            end = value
        }
        guard start < size else { return .unsatisfiable }
        return .part(ByteRange(offset: start, length: min(end, size - 1) - start + 1))
    }

    /// A run of ASCII digits; one too large for an `Int` is as good as infinite for any size.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text) ?? .max
    }
}

extension StringProtocol {
    /// Without the spaces and tabs HTTP allows around list elements and values.
    fileprivate var trimmed: Substring {
        let view = Substring(self)
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = view.firstIndex(where: { !isBlank($0) }) else { return "" }
        let end = view.lastIndex(where: { !isBlank($0) })!
        return view[start...end]
    }
}

extension HTTPResponse {
    /// This `200` of a whole representation of `size` bytes, answered as `answer` asks: unchanged, the
    /// `206` of one part, or a `416` in the wire error shape; every one says `Accept-Ranges: bytes`.
    func answering(_ answer: ByteRange.Answer, size: Int) -> HTTPResponse {
        var response = self
        response.headers.append(("Accept-Ranges", "bytes"))
        switch answer {
        case .whole:
            return response
        case .part(let part):
            response.status = 206
            response.headers.append(("Content-Range", part.contentRange(of: size)))
            response.range = part
            return response
        case .unsatisfiable:
            return Self.rangeNotSatisfiable(size: size)
        }
    }

    /// `416 range_not_satisfiable` with the `Content-Range` RFC 9110 §15.5.17 asks for.
    static func rangeNotSatisfiable(size: Int) -> HTTPResponse {
        let message = "no byte of the \(size)-byte representation is in the range asked for"
        return error(
            .service(ServiceError(.rangeNotSatisfiable, message)),
            headers: [("Accept-Ranges", "bytes"), ("Content-Range", ByteRange.unsatisfiedRange(of: size))])
    }
}
