import Foundation
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdCore

/// Every row of `../shared/corpus/MANIFEST.tsv`, decoded the way the daemon does it: in decoder children.
@Suite struct CorpusConformanceTests {
    /// One pool for every row, so the suite runs as the daemon would, two children at a time.
    private static let pool = PipelinePool.overFiles(
        .init(executable: TestPaths.variantd, size: 2, deadline: .seconds(120)),
        renditions: try! RenditionFolder(root: store))

    /// Every picture type and PDF, the three standard variants and an AVIF one: every `decode` row renders them all.
    private static let bucket = try! BucketDeclaration(
        parsing: """
            { "name": "corpus", "allowedMimeTypes": ["image/*", "application/pdf"],
              "variants": {
                "thumb": { "width": 200, "height": 200, "fit": "cover", "format": "webp", "quality": 75 },
                "large": { "width": 1600, "height": 1600, "fit": "inside", "format": "jpeg", "quality": 82 },
                "small-avif": { "width": 320, "height": 320, "fit": "inside", "format": "avif" } } }
            """.utf8)

    private static let store = FileManager.default.temporaryDirectory
        .appendingPathComponent("variantd-corpus-\(UUID().uuidString)").path

    @Test(
        .enabled(if: Corpus.isAvailable, "no ../shared/corpus beside the checkout (a plain clone)"),
        arguments: Corpus.rows)
    func rowHasItsExpectedOutcome(row: Corpus.Row) async throws {
        let request = ObjectRequest(bucket: "corpus", path: row.path)
        let outcome = await Self.pool.fulfil(
            RenditionOrder(request, bucket: Self.bucket),
            from: .stored(String(Corpus.url(row).path.dropFirst()))
        ).outcome

        switch (row.decodes, outcome) {
        case (true, .success(let metadata)):
            #expect(metadata.contentType == row.sniffedType)
            // A disguised document's row gives no size.
            if row.width != nil || row.height != nil {
                #expect(metadata.width == row.width)
                #expect(metadata.height == row.height)
            }
            #expect(metadata.thumbhash != nil)
            let renditions = metadata.renditions ?? [:]
            #expect(Set(renditions.keys) == ["thumb", "large", "small-avif"])
            for rendition in renditions.values {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: Self.store + "/" + rendition.key)
                #expect((attributes[.size] as? NSNumber)?.intValue == rendition.size)
            }
        case (true, .failure(let error)):
            Issue.record("expected \(row.width ?? 0)×\(row.height ?? 0), got \(error)")
        case (false, .success(let metadata)):
            Issue.record(
                "expected a rejection, got \(metadata.contentType) \(metadata.width ?? 0)×\(metadata.height ?? 0)"
            )
        case (false, .failure(let error)):
            #expect([.unreadablePicture, .unsupportedMediaType].contains(error.code), "\(error)")
            #expect(error.reason != .decoderTimeout, "\(error)")
        }
    }
}
