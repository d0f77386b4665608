/// One rendition as the storage layer records it.
public struct Rendition: Sendable, Codable, Equatable {
    public var width: Int
    public var height: Int
    public var contentType: String
    public var size: Int
    public var checksumSha256: String
    /// Where the file is, relative to the rendition store's root: source SHA-256 and spec hash.
    public var key: String

    public init(width: Int, height: Int, contentType: String, size: Int, checksumSha256: String, key: String)
    {
        self.width = width
        self.height = height
        self.contentType = contentType
        self.size = size
        self.checksumSha256 = checksumSha256
        self.key = key
    }
}
