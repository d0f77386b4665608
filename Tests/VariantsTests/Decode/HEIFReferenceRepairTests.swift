import Foundation
import Testing

@testable import Variants

/// HEIF files whose references name one item twice decode through a repaired copy.
@Suite struct HEIFReferenceRepairTests {
    static let c021 = ColourConversionTests.corpus.appendingPathComponent("conformance/heif/nokia-C021.heic")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: c021.path), "../shared/corpus is absent"))
    func overlayWithARepeatedTileDecodesItsPrimaryItem() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.c021))
        let repaired = try #require(HEIFReferenceRepair.repaired(bytes))
        #expect(repaired.count == bytes.count)
        var timings = StageTimings()
        let metadata = try Pipeline().run(
            RenditionOrder(ObjectRequest(bucket: "b", path: "C021.heic"), bucket: nil), bytes: bytes,
            timings: &timings)
        #expect(metadata.width == 1280 && metadata.height == 720)
    }

    @Test func fileWithoutRepeatedReferencesIsLeftAlone() throws {
        #expect(HEIFReferenceRepair.repaired(try Samples.bytes("pictures/rgb-29x100.heif")) == nil)
        #expect(HEIFReferenceRepair.repaired(try Samples.bytes("pictures/hopper.avif")) == nil)
        #expect(HEIFReferenceRepair.repaired([0, 0, 0, 8, 0x6D, 0x65, 0x74, 0x61]) == nil)
    }
}
