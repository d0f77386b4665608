extension OutputFormat {
    /// The media type renditions in this format are written as; nil for `original`, which a plan resolves to
    /// one of the others first.
    var writtenType: MediaType? { Self.writtenTypes[self] }

    private static let writtenTypes: [OutputFormat: MediaType] = Dictionary(
        MediaType.allCases.compactMap { type in type.facts.encoder.map { ($0.format, type) } },
        uniquingKeysWith: { first, _ in first })

    /// The rows of the types a rendition asked for in this format may be written as: its own type's, or for
    /// `original` every type with an encoder, since a source keeps its own format. A setting any of them reads
    /// changes the rendition (`canonicalJSON` keys it).
    var writers: [FormatFacts] { Self.writerRows[self] ?? [] }

    private static let writerRows = Dictionary(
        uniqueKeysWithValues: allCases.map { format in
            let types =
                format.writtenType.map { [$0] } ?? MediaType.allCases.filter { $0.facts.encoder != nil }
            return (format, types.map(\.facts))
        })

    /// The quality used when a variant declares none; `nil` where quality has no meaning (lossless PNG) or is
    /// not known until the source's format is (`original`).
    public var defaultQuality: Int? { writtenType?.facts.encoder?.defaultQuality }

    /// The score `quality: "auto"` aims at in this format; `nil` where no quality search is made, and for
    /// `original`, which a plan resolves first.
    public var defaultScoreTarget: Int? { scoreSearch?.target }

    /// How a quality search in this format starts; `nil` where none is made.
    var scoreSearch: FormatFacts.ScoreSearch? { writtenType?.facts.encoder?.scoreSearch }

    /// Whether the encoding keeps an alpha channel; an alpha source written as JPEG is flattened first.
    /// `original` keeps it: a source with alpha keeps its own format only where that keeps alpha, else
    /// becomes PNG.
    public var supportsAlpha: Bool { writtenType?.facts.alpha ?? true }

    /// The format `original` keeps for a source of this type, or nil where we cannot encode it (HEIC, GIF).
    init?(keeping type: MediaType) {
        guard let format = type.facts.encoder?.format else { return nil }
        self = format
    }
}
