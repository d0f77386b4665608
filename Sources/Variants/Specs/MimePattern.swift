/// One entry of a bucket's `allowedMimeTypes`: an exact type, every subtype of a type, or anything.
///
/// Stored in lower case, since media types compare case-insensitively (RFC 2045 §5.1).
public enum MimePattern: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `*/*`.
    case any
    /// `image/*`: the associated value is the type, `image`.
    case anySubtype(of: String)
    /// `image/png`.
    case exact(String)

    /// The declaration's spelling.
    public var description: String {
        switch self {
        case .any: "*/*"
        case .anySubtype(let type): type + "/*"
        case .exact(let mimeType): mimeType
        }
    }

    /// Whether a bare, lower-case `type/subtype` (no parameters) matches.
    public func matches(_ mimeType: String) -> Bool {
        switch self {
        case .any: true
        case .anySubtype(let type): mimeType.hasPrefix(type + "/")
        case .exact(let exact): mimeType == exact
        }
    }
}
