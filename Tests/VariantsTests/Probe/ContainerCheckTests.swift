import Testing

@testable import Variants

@Suite struct ContainerCheckTests {
    @Test func completeSamplesAreNotTruncated() throws {
        for (file, type) in [
            ("pictures/gradient.jpg", MediaType.jpeg), ("pictures/gradient-alpha.png", .png),
            ("pictures/gradient.gif", .gif), ("pictures/gradient.webp", .webp),
            ("pictures/rgb-29x100.heif", .heif),
        ] {
            #expect(!ContainerCheck.isTruncated(try Samples.bytes(file), as: type), "\(file)")
        }
    }

    @Test(arguments: [0.25, 0.5, 0.9])
    func cutFilesAreTruncated(fraction: Double) throws {
        for (file, type) in [
            ("pictures/gradient.jpg", MediaType.jpeg), ("pictures/gradient-alpha.png", .png),
            ("pictures/gradient.gif", .gif), ("pictures/gradient.webp", .webp),
            ("pictures/rgb-29x100.heif", .heif),
        ] {
            let bytes = try Samples.bytes(file)
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            #expect(ContainerCheck.isTruncated(cut, as: type), "\(file) cut at \(fraction)")
        }
    }

    @Test func jpegFrameHeaderNamesUnsupportedCodings() throws {
        var bytes = try Samples.bytes("pictures/gradient.jpg")
        #expect(JPEGStructure(bytes).unsupportedFeature == nil)
        #expect(JPEGStructure(bytes).frameMarker == 0xC0)
        let frame = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[frame + 4] = 12
        #expect(JPEGStructure(bytes).unsupportedFeature == "12-bit JPEG")
        bytes[frame + 4] = 8
        bytes[frame + 1] = 0xC3
        #expect(JPEGStructure(bytes).unsupportedFeature == "lossless JPEG")
    }

    @Test func countsMetadataBlocks() throws {
        let plain = try Samples.bytes("pictures/gradient.jpg")
        let withExif = try Samples.bytes("pictures/orientation-6.jpg")
        // orientation-6.jpg is gradient.jpg with one APP1 EXIF segment of 36 bytes (marker and length included).
        #expect(
            ContainerCheck.metadataBytes(withExif, as: .jpeg) - ContainerCheck.metadataBytes(plain, as: .jpeg)
                == 36)
        #expect(ContainerCheck.metadataBytes(try Samples.bytes("pictures/gradient-alpha.png"), as: .png) == 0)
    }

    @Test func crc32MatchesKnownVectors() {
        #expect(CRC32.checksum(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("IEND".utf8)[...]) == 0xAE42_6082)
    }

    @Test func pngChecksumsAreCheckedOnCriticalChunksOnly() throws {
        let png = try Samples.bytes("pictures/gradient-alpha.png")
        #expect(!ContainerCheck.hasBadChecksum(png, as: .png))
        let idat = try #require(
            png.indices.first { png[$0..<min($0 + 4, png.count)].elementsEqual("IDAT".utf8) })
        var badPixels = png
        badPixels[idat + 6] ^= 0x01
        #expect(ContainerCheck.hasBadChecksum(badPixels, as: .png))
        // A tEXt chunk with a wrong CRC, inserted after IHDR: the decoder skips it, and so do we.
        let text: [UInt8] = [0, 0, 0, 4] + Array("tEXta\u{0}bc".utf8) + [0, 0, 0, 0]
        let withText = Array(png[..<33]) + text + Array(png[33...])
        #expect(!ContainerCheck.isTruncated(withText, as: .png))
        #expect(!ContainerCheck.hasBadChecksum(withText, as: .png))
    }
}
