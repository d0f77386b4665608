/// A variant's quality chosen by how the rendition looks rather than fixed: the lowest encoder quality whose
/// rendition scores at least a SSIMULACRA2 target against its own lossless pixels (`Renderer`'s search).
public enum QualityTarget: Sendable, Equatable, Hashable, Encodable {
    /// The output format's documented target, `OutputFormat.defaultScoreTarget`.
    case auto
    /// At least this SSIMULACRA2 score, in `scores`.
    case ssimulacra2(Int)

    /// The targets a declaration may ask for: below 30 a picture is visibly damaged (SSIMULACRA2's "low
    /// quality"), above 95 the encoders reach it only near their top quality, where a fixed one says as much.
    public static let scores = 30...95

    /// The score to reach in `format`; `nil` where no search is made (PNG is lossless; `original` is
    /// resolved first).
    public func score(in format: OutputFormat) -> Int? {
        guard let automatic = format.defaultScoreTarget else { return nil }
        switch self {
        case .auto: return automatic
        case .ssimulacra2(let score): return score
        }
    }
}

extension QualityTarget {
    /// As a decoder child's job line writes it (`encode(to:)`): `"auto"` or the score.
    init(wire field: DeclarationField) throws(VariantsError) {
        if case .string("auto") = field.value {
            self = .auto
        } else {
            self = .ssimulacra2(try field.score())
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .auto: try container.encode("auto")
        case .ssimulacra2(let score): try container.encode(score)
        }
    }

    /// As a declaration writes it: `"auto"` or `{"ssimulacra2":N}`.
    var declarationJSON: String {
        switch self {
        case .auto: JSONValue.quote("auto")
        case .ssimulacra2(let score): "{\"ssimulacra2\":\(score)}"
        }
    }
}
