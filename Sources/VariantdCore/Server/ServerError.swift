import Variants

/// Why the daemon refuses or fails a request: one of the library's errors, or a refusal only a server makes
/// (no shared secret, no free render slot). All go out in the library's wire shape, `{"statusCode",
/// "error", "reason"?, "message"}`.
enum ServerError: Error, Sendable, Encodable {
    case library(VariantsError)
    /// `401 unauthorized`: the shared secret is missing or wrong.
    case unauthorized(String)
    /// `503 transform_busy`: no render slot or queue room now; worth retrying later.
    case transformBusy(String)

    init(_ error: any Error) {
        switch error {
        case let error as ServerError: self = error
        case let error as VariantsError where error.code == .storageUnavailable:
            self = .transformBusy(error.message)
        case let error as VariantsError: self = .library(error)
        default: self = .library(VariantsError(.internalError, "\(error)"))
        }
    }

    /// The stable `error` code.
    var code: String {
        switch self {
        case .library(let error): error.code.rawValue
        case .unauthorized: "unauthorized"
        case .transformBusy: "transform_busy"
        }
    }

    var statusCode: Int {
        switch self {
        case .library(let error): error.statusCode
        case .unauthorized: 401
        case .transformBusy: 503
        }
    }

    private enum CodingKeys: String, CodingKey {
        case statusCode, error, message
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .library(let error):
            try error.encode(to: encoder)
        case .unauthorized(let message), .transformBusy(let message):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(statusCode, forKey: .statusCode)
            try container.encode(code, forKey: .error)
            try container.encode(message, forKey: .message)
        }
    }
}
