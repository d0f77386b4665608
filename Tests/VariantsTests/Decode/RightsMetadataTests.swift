import Testing

@testable import Variants

/// The artist, copyright and rights statement read from a source's EXIF and XMP, and written back alone.
@Suite struct RightsMetadataTests {
    private let kept = RightsMetadata(
        MetadataBlocks(
            exif: RightsMetadata.exifFixture(artist: "Jane", copyright: "(c) 2026 Jane Doe\0Ed Itor"),
            xmp: Array(
                #"""
                <x:xmpmeta><rdf:RDF><rdf:Description><dc:creator><rdf:Seq><rdf:li>X</rdf:li></rdf:Seq></dc:creator>
                <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">&#169; Jane &amp; co</rdf:li>
                <rdf:li xml:lang='fr-FR'>Tous droits r&#xE9;serv&#233;s</rdf:li></rdf:Alt></dc:rights>
                </rdf:Description></rdf:RDF></x:xmpmeta>
                """#.utf8)))

    @Test func readsTheTwoTagsAndEveryLanguage() throws {
        let rights = try #require(kept)
        #expect(rights.artist == Array("Jane".utf8))
        #expect(rights.copyright == Array("(c) 2026 Jane Doe\0Ed Itor".utf8))
        #expect(
            rights.rights == [
                .init(language: "x-default", text: "© Jane & co"),
                .init(language: "fr-FR", text: "Tous droits réservés"),
            ])
    }

    /// What is written reads back as the same rights, and holds nothing else.
    @Test func writtenBlocksReadBackTheSame() throws {
        let rights = try #require(kept)
        let blocks = rights.blocks
        #expect(RightsMetadata(blocks) == rights)
        let packet = String(decoding: try #require(blocks.xmp), as: UTF8.self)
        #expect(!packet.contains("creator"))
        #expect(packet.contains("&#169;") == false && packet.contains("© Jane &amp; co"))
        #expect(RightsMetadata.exifStrings(try #require(blocks.exif)).keys.sorted() == [0x013B, 0x8298])
    }

    @Test func nothingToKeepIsNil() {
        #expect(RightsMetadata(.none) == nil)
        #expect(
            RightsMetadata(MetadataBlocks(exif: RightsMetadata.exifFixture(artist: nil, copyright: nil)))
                == nil)
        #expect(RightsMetadata(MetadataBlocks(xmp: Array("<dc:rights></dc:rights>".utf8))) == nil)
    }

    /// Offsets past the block, counts past it, an unknown byte order, a value over the bound: nothing read,
    /// never a crash.
    @Test func hostileBlocksReadAsNothing() {
        var block = RightsMetadata.exifFixture(artist: "A long artist name", copyright: nil)
        #expect(RightsMetadata.exifStrings(block)[0x013B] == Array("A long artist name".utf8))
        // The value's 19 bytes end one short of the block, whose last byte pads it to an even length.
        for cut in 0..<block.count - 1 {
            #expect(RightsMetadata.exifStrings(Array(block.prefix(cut))).isEmpty)
        }
        block[0] = 0x58
        #expect(RightsMetadata.exifStrings(block).isEmpty)
        let long = String(repeating: "x", count: RightsMetadata.maximumValueBytes + 1)
        #expect(RightsMetadata.exifStrings(RightsMetadata.exifFixture(artist: long, copyright: nil)).isEmpty)
        // An IFD offset and an entry count far past the end.
        let wild: [UInt8] = Array("II".utf8) + [42, 0, 0xFF, 0xFF, 0xFF, 0x7F] + [0xFF, 0xFF]
        #expect(RightsMetadata.exifStrings(wild).isEmpty)
        #expect(RightsMetadata.xmpRights(Array("<dc:rights><rdf:li>unclosed".utf8)).isEmpty)
        #expect(
            RightsMetadata.xmpRights(Array("<dc:rights><rdf:li>a &bogus; b</rdf:li></dc:rights>".utf8))
                .isEmpty)
    }

    /// A big-endian block, as many cameras write, reads the same.
    @Test func readsBigEndian() throws {
        let value = Array("Big Endian Artist\0".utf8)
        var block: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1]
        block += [0x01, 0x3B, 0, 2, 0, 0, 0, UInt8(value.count), 0, 0, 0, 26, 0, 0, 0, 0]
        block += value
        #expect(RightsMetadata.exifStrings(block)[0x013B] == Array("Big Endian Artist".utf8))
        #expect(RightsMetadata.exifStrings(Array("Exif\0\0".utf8) + block)[0x013B] != nil)
    }
}

extension RightsMetadata {
    /// An EXIF block as a rendition gets it, made through the writer from raw values.
    fileprivate static func exifFixture(artist: String?, copyright: String?) -> [UInt8] {
        var rights = RightsMetadata(
            MetadataBlocks(xmp: Array(#"<dc:rights><rdf:li>x</rdf:li></dc:rights>"#.utf8)))!
        rights.artist = artist.map { Array($0.utf8) }
        rights.copyright = copyright.map { Array($0.utf8) }
        return rights.exifBlock ?? Array("II".utf8) + [42, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    }
}
