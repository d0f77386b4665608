import Variants

/// Why the daemon answers a request with an error: the pipeline's (a picture, its bucket, the request's
/// fields, the object store) or the service's own refusal. Both reach the wire in one shape.
enum AnswerError: Error, Sendable, Equatable, Encodable {
    case pipeline(VariantsError)
    case service(ServiceError)

    /// The daemon's answer to a pipeline error. A store that cannot be reached now is answered like a full
    /// daemon, `503 transform_busy` with `Retry-After`: the caller's remedy is the same, and the wire keeps
    /// one code for "come back later".
    init(_ error: VariantsError) {
        self =
            error.code == .storeUnavailable
            ? .service(ServiceError(.transformBusy, error.message)) : .pipeline(error)
    }

    var statusCode: Int {
        switch self {
        case .pipeline(let error): error.statusCode
        case .service(let error): error.statusCode
        }
    }

    /// The wire `error` code, also the `code` of log lines and metrics.
    var code: String {
        switch self {
        case .pipeline(let error): error.code.rawValue
        case .service(let error): error.code.rawValue
        }
    }

    /// A `503 transform_busy`, from a full daemon or an unreachable object store: the caller should come back
    /// after `Retry-After`.
    var isBusy: Bool {
        if case .service(let error) = self { error.code == .transformBusy } else { false }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .pipeline(let error): try error.encode(to: encoder)
        case .service(let error): try error.encode(to: encoder)
        }
    }

    /// Runs a step of the pipeline inside a path that may also refuse on the service's account.
    static func catching<Value>(_ step: () throws(VariantsError) -> Value) throws(AnswerError) -> Value {
        do {
            return try step()
        } catch {
            throw AnswerError(error)
        }
    }
}
