import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdBench

@Suite struct CorpusDiscoveryTests {
    private static let formats = TestPaths.shared.appendingPathComponent("corpus/formats")
    private static let corpusPresent = FileManager.default.fileExists(atPath: formats.path)

    @Test func stillGIFAndWebPSamplesAreNotAnimated() throws {
        let found = CorpusDiscovery.pictures(under: TestPaths.samples.appendingPathComponent("pictures").path)
        let gif = try #require(found.first { $0.path.hasSuffix("/gradient.gif") })
        let webp = try #require(found.first { $0.path.hasSuffix("/gradient.webp") })
        #expect(gif.type == .gif && !gif.animated)
        #expect(webp.type == .webp && !webp.animated)
    }

    @Test(
        .enabled(if: corpusPresent, "needs ../shared/corpus/formats beside the checkout"),
        arguments: ["gif-animated", "webp-animated"])
    func everyPictureOfAnAnimatedFolderIsAnimated(folder: String) {
        let found = CorpusDiscovery.pictures(under: Self.formats.appendingPathComponent(folder).path)
        #expect(!found.isEmpty)
        for picture in found {
            #expect(picture.animated, "\(picture.path)")
        }
    }
}
