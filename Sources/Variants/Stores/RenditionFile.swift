/// One rendition's key in the store and its encoded bytes.
public struct RenditionFile: Sendable, Equatable {
    public var key: String
    public var bytes: [UInt8]

    public init(key: String, bytes: [UInt8]) {
        self.key = key
        self.bytes = bytes
    }
}
