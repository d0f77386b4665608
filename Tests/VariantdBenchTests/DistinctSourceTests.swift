import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdBench
@testable import VariantdCore

@Suite struct DistinctSourceTests {
    @Test(arguments: [
        "gradient.jpg", "gradient-alpha.png", "gradient.gif", "gradient.webp", "hopper.avif",
        "rgb-29x100.heif",
    ])
    func copiesDifferInBytesOnly(file: String) throws {
        let path = TestPaths.samples.appendingPathComponent("pictures/\(file)").path
        let original = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        let first = try #require(DistinctSource.copy(original, number: 1))
        let second = try #require(DistinctSource.copy(original, number: 2))
        let pipeline = try Pipeline()
        var timings = StageTimings()
        let request = ObjectRequest(bucket: "b", path: file)
        let source = try pipeline.run(
            RenditionOrder(request, bucket: nil), bytes: original, timings: &timings)
        let copies = try [first, second].map {
            try pipeline.run(RenditionOrder(request, bucket: nil), bytes: $0, timings: &timings)
        }
        for copy in copies {
            #expect(copy.contentType == source.contentType)
            #expect(copy.hasAlpha == source.hasAlpha)
            #expect(copy.width == source.width && copy.height == source.height)
            #expect(copy.thumbhash == source.thumbhash)
        }
        #expect(Set([source.checksumSha256] + copies.map(\.checksumSha256)).count == 3)
    }

    @Test func formatsWithoutADistinctCopyAreSaid() throws {
        let path = TestPaths.samples.appendingPathComponent("other/document.pdf").path
        #expect(
            DistinctSource.copy([UInt8](try #require(FileManager.default.contents(atPath: path))), number: 1)
                == nil)
    }
}
