/// The encoding a variant is written in; `original` keeps the source's format where we can encode it.
public enum OutputFormat: String, Sendable, Equatable, Hashable, CaseIterable {
    case jpeg
    case png
    case webp
    case avif
    case original

    /// The quality used when a variant declares none; `nil` where quality has no meaning (lossless PNG) or is
    /// not known until the source's format is (`original`). The only place these defaults live.
    public var defaultQuality: Int? {
        switch self {
        case .jpeg: 82
        case .webp: 80
        case .avif: 60
        case .png, .original: nil
        }
    }

    /// The SSIMULACRA2 score `quality: "auto"` aims at: about the mean score the default quality reaches on
    /// the corpus photos (docs/BucketDeclaration.md has the figures). `nil` where no quality search is made:
    /// PNG is lossless, AVIF's encoder is too slow to run several times a rendition, and `original` is
    /// resolved first.
    public var defaultScoreTarget: Int? {
        switch self {
        case .jpeg: 83
        case .webp: 75
        case .png, .avif, .original: nil
        }
    }

    /// Whether the encoding keeps an alpha channel; an alpha source written as JPEG is flattened first.
    public var supportsAlpha: Bool {
        switch self {
        case .jpeg: false
        case .png, .webp, .avif, .original: true
        }
    }
}
