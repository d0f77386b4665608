import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdBench
@testable import VariantdCore

@Suite struct BenchCorpusTests {
    @Test func filesAreGroupedBySniffedTypeInReportOrder() {
        let corpora = BenchCorpus.group([
            (path: "/c/b.png", type: .png),
            (path: "/c/photo.HEIC", type: .heic),
            (path: "/c/Samsung_200MP.heic", type: .heic),
            (path: "/c/z.jpg", type: .jpeg),
            (path: "/c/a.jpg", type: .jpeg),
            (path: "/c/doc.pdf", type: .pdf),
            (path: "/c/x.avif", type: .avif),
            (path: "/c/old.bmp", type: .bmp),
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
    }

    @Test func aKeepFilterDropsCorpora() {
        let corpora = BenchCorpus.group([(path: "/a.png", type: .png), (path: "/a.jpg", type: .jpeg)]) {
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
