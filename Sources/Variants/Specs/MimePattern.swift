/// One entry of a bucket's `allowedMimeTypes`: an exact type, every subtype of a type, or anything.
///
/// Stored in lower case, since media types compare case-insensitively (RFC 2045 §5.1).
public enum MimePattern: Sendable, Equatable, Hashable, CustomStringConvertible, Encodable {
    /// `*/*`.
    case any
    /// `image/*`: the associated value is the type, `image`.
    case anySubtype(of: String)
    /// `image/png`.
    case exact(String)

    /// What a declaration may write, in words.
    static let rule = "media type such as image/png, image/* or */*"

    /// `type/subtype`, `type/*` or `*/*`, each part an RFC 6838 restricted name, in any case; nil otherwise.
    init?(declared text: String) {
        let parts = text.lowercased().split(separator: "/", omittingEmptySubsequences: false)
        let symbols = Set("!#$&^_.+-")
        func isRestrictedName(_ part: Substring) -> Bool {
            guard (1...127).contains(part.count), let first = part.first, first.isASCII,
                first.isLetter || first.isNumber
            else { return false }
            return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || symbols.contains($0)) }
        }
        switch (parts.count == 2 ? parts[0] : "", parts.count == 2 ? parts[1] : "") {
        case ("*", "*"): self = .any
        case (let type, "*") where isRestrictedName(type): self = .anySubtype(of: String(type))
        case (let type, let subtype) where isRestrictedName(type) && isRestrictedName(subtype):
            self = .exact(type + "/" + subtype)
        default: return nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

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
