/// The encoding a variant is written in; `original` keeps the source's format where we can encode it.
public enum OutputFormat: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case jpeg
    case png
    case webp
    case avif
    case original
}
