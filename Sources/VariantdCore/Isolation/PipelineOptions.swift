/// What a caller of `PipelinePool` already knows about an object, and what it wants beyond its renditions:
/// knowing spares the pool a hash or a listing, and not wanting spares the child a ThumbHash.
public struct PipelineOptions: Sendable {
    /// The SHA-256 of the bytes, when the caller hashed them already.
    public var checksum: String?
    /// Whether the renditions stored for the bucket's variants are looked up, to be checked and reused;
    /// false when the caller listed them just now and found none.
    public var looksUpStored: Bool
    /// The spec keys of the bucket's variants to make (`Pipeline.process`'s `wanted`); nil makes them all.
    public var wanted: Set<String>?
    /// Whether the ThumbHash is computed.
    public var placeholder: Bool

    public init(
        checksum: String? = nil, looksUpStored: Bool = true, wanted: Set<String>? = nil,
        placeholder: Bool = true
    ) {
        self.checksum = checksum
        self.looksUpStored = looksUpStored
        self.wanted = wanted
        self.placeholder = placeholder
    }
}
