import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdBench
@testable import VariantdCore

@Suite struct BenchCorpusTests {
    @Test func filesAreGroupedBySniffedTypeInReportOrder() {
        let corpora = BenchCorpus.group([
            (path: "/c/b.png", type: .png, animated: false),
            (path: "/c/photo.HEIC", type: .heic, animated: false),
            (path: "/c/Samsung_200MP.heic", type: .heic, animated: false),
            (path: "/c/z.jpg", type: .jpeg, animated: false),
            (path: "/c/a.jpg", type: .jpeg, animated: false),
            (path: "/c/doc.pdf", type: .pdf, animated: false),
            (path: "/c/x.avif", type: .avif, animated: false),
            (path: "/c/old.bmp", type: .bmp, animated: false),
        ])
        #expect(corpora.map(\.name) == ["jpeg", "heic", "200mp", "png", "avif"])
        #expect(corpora.first?.files == ["/c/a.jpg", "/c/z.jpg"])
        #expect(corpora.first { $0.name == "200mp" }?.files == ["/c/Samsung_200MP.heic"])
    }

    @Test func corpusNamesFollowTheFormat() {
        #expect(BenchCorpus.name(for: .heif, fileName: "a.heif") == "heic")
        #expect(BenchCorpus.name(for: .gif, fileName: "a.gif") == "gif")
        #expect(BenchCorpus.name(for: .webp, fileName: "a.webp") == "webp")
        #expect(BenchCorpus.name(for: .text, fileName: "a.txt") == nil)
        #expect(BenchCorpus.name(for: .gif, fileName: "a.gif", animated: true) == "animated")
        #expect(BenchCorpus.name(for: .webp, fileName: "a.webp", animated: true) == "animated")
    }

    /// Animated GIF and WebP files make a row of their own, after the stills of their formats.
    @Test func animatedPicturesAreMeasuredApartFromStills() {
        let corpora = BenchCorpus.group([
            (path: "/c/still.gif", type: .gif, animated: false),
            (path: "/c/cogs.gif", type: .gif, animated: true),
            (path: "/c/loop.webp", type: .webp, animated: true),
            (path: "/c/still.webp", type: .webp, animated: false),
        ])
        #expect(corpora.map(\.name) == ["webp", "gif", "animated"])
        #expect(corpora.last?.files == ["/c/cogs.gif", "/c/loop.webp"])
    }

    /// In the shared corpus, the files of `formats/gif-animated` and `formats/webp-animated` are the
    /// animated row, and no other file is.
    @Test(
        .enabled(
            if: FileManager.default.fileExists(
                atPath: TestPaths.shared.appendingPathComponent("corpus").path), "../shared/corpus is absent")
    )
    func discoveryFindsTheAnimatedPicturesByTheirFrames() {
        let formats = TestPaths.shared.appendingPathComponent("corpus/formats").path
        let animated = CorpusDiscovery.discover(formats).first { $0.name == "animated" }?.files ?? []
        #expect(!animated.isEmpty)
        #expect(animated.allSatisfy { $0.contains("-animated/") }, "\(animated)")
        let stills = CorpusDiscovery.discover(formats).filter { ["gif", "webp"].contains($0.name) }
        #expect(stills.flatMap(\.files).allSatisfy { !$0.contains("-animated/") })
    }

    @Test func aKeepFilterDropsCorpora() {
        let corpora = BenchCorpus.group([
            (path: "/a.png", type: .png, animated: false), (path: "/a.jpg", type: .jpeg, animated: false),
        ]) {
            $0 != "png"
        }
        #expect(corpora.map(\.name) == ["jpeg"])
    }

    @Test func discoverySniffsTheBytesNotTheNames() {
        let corpora = CorpusDiscovery.discover(TestPaths.samples.appendingPathComponent("pictures").path)
        #expect(corpora.map(\.name) == ["jpeg", "heic", "png", "webp", "avif", "gif"])
        let jpeg = corpora.first { $0.name == "jpeg" }?.files.map { ($0 as NSString).lastPathComponent }
        #expect(jpeg == ["gradient.jpg", "orientation-6.jpg", "truncated.jpg"])
        #expect(CorpusDiscovery.discover(TestPaths.samples.appendingPathComponent("other").path).isEmpty)
    }
}
