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
}
