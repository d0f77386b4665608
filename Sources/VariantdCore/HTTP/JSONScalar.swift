/// A string or a whole number, the values of the small JSON objects the daemon writes itself (lifecycle
/// log events, the readiness answer).
enum JSONScalar: Sendable, Encodable, Equatable {
    case integer(Int)
    case string(String)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}
