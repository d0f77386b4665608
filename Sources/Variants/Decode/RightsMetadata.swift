/// Who made a picture and who holds its rights, as its source says: EXIF `Artist` and `Copyright`, and the
/// XMP rights statement (`dc:rights`, one text per language). What `metadata: "copyright"` keeps.
///
/// Read in the decoder child from the blocks the loader found, each value bounded; written back as fresh
/// blocks holding these values alone, so nothing else of the source's EXIF or XMP can reach a rendition.
struct RightsMetadata: Sendable, Equatable {
    /// The EXIF `Artist` value's bytes, without its terminating NUL.
    var artist: [UInt8]?
    /// The EXIF `Copyright` value's bytes, without its terminating NUL: the photographer's notice, then
    /// possibly a NUL and the editor's, as EXIF lays it out.
    var copyright: [UInt8]?
    /// `dc:rights`: each language's text, in the packet's order.
    var rights: [Statement]

    /// One language's rights statement; `language` is an RFC 3066 tag or `x-default`.
    struct Statement: Sendable, Equatable {
        var language: String
        var text: String
    }

    /// The longest value kept, in bytes; a longer one is left out rather than cut.
    static let maximumValueBytes = 1024
    /// The largest EXIF block or XMP packet of a HEIF source read for them.
    static let maximumBlockBytes = 1 << 20
    /// The most languages of `dc:rights` kept.
    static let maximumLanguages = 8

    /// The rights `blocks` hold; nil when they hold none.
    init?(_ blocks: MetadataBlocks) {
        let tags = blocks.exif.map(Self.exifStrings) ?? [:]
        artist = tags[Self.artistTag]
        copyright = tags[Self.copyrightTag]
        rights = blocks.xmp.map(Self.xmpRights) ?? []
        if artist == nil && copyright == nil && rights.isEmpty { return nil }
    }

    /// The blocks a rendition carries: an EXIF block of `Artist` and `Copyright`, an XMP packet of
    /// `dc:rights`, each only when there is something to say.
    var blocks: MetadataBlocks {
        MetadataBlocks(exif: exifBlock, xmp: rights.isEmpty ? nil : xmpPacket)
    }
}
