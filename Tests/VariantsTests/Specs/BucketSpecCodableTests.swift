import Foundation
import Testing

@testable import Variants

/// The bucket's wire form (what a decoder child receives) and inline declarations inside a larger object.
@Suite struct BucketSpecCodableTests {
    @Test(arguments: ["post-images.json", "everything.json"])
    func declarationTextParsesBackToTheSameBucket(file: String) throws {
        let bucket = try BucketSpec(parsing: try Samples.bucket(file))
        #expect(try BucketSpec(parsing: bucket.declarationJSON.utf8) == bucket)
        let wire = try JSONEncoder().encode([bucket])
        #expect(try JSONDecoder().decode([BucketSpec].self, from: wire) == [bucket])
    }

    @Test func everySettingSurvivesTheRoundTrip() throws {
        let text = #"""
            {"name": "b", "fileSizeLimit": 7, "allowedMimeTypes": ["image/png", "video/*"], "variants": {
              "a": {"width": 5000, "height": 10, "fit": "contain", "background": [1, 2, 3, 4], "format": "original",
                    "progressive": true},
              "b": {"height": 33, "position": "attention", "rotate": -90, "blur": 0.5, "sharpen": 2,
                    "withoutEnlargement": false, "quality": 41, "format": "avif"},
              "c": {"width": 20, "format": "webp", "animated": false, "quality": {"ssimulacra2": 70}}}}
            """#
        let bucket = try BucketSpec(parsing: text.utf8)
        let again = try BucketSpec(parsing: bucket.declarationJSON.utf8)
        #expect(again == bucket)
        #expect(again.variants.map(\.canonicalJSON) == bucket.variants.map(\.canonicalJSON))

        // Every setting is away from its default in some variant above, so a setting added later and
        // forgotten by the wire form fails here rather than in a decoder child.
        let defaults = VariantSpec(name: "d", width: 1, height: nil)
        let settings = Mirror(reflecting: defaults).children.compactMap(\.label).filter { $0 != "name" }
        for setting in settings {
            let declared = bucket.variants.contains { variant in
                func value(_ spec: VariantSpec) -> String? {
                    Mirror(reflecting: spec).children.first { $0.label == setting }.map { "\($0.value)" }
                }
                return value(variant) != value(defaults)
            }
            #expect(declared, "no variant of the round trip declares \(setting)")
        }
    }

    @Test func aCorruptedWireFormIsRefusedByTheParser() {
        let wire = Data(#"["{\"name\": \"b\", \"variants\": {\"v\": {\"width\": 0}}}"]"#.utf8)
        #expect(throws: VariantsError.self) { try JSONDecoder().decode([BucketSpec].self, from: wire) }
    }

    @Test func inlineMemberIsReadWithTheDeclarationRules() throws {
        let body = #"{"id": "1", "bucketPolicy": {"name": "b", "variants": {"v": {"width": 10}}}}"#
        let bucket = try #require(try BucketSpec.inline(member: "bucketPolicy", of: body.utf8))
        #expect(bucket.name == "b" && bucket.variant(named: "v")?.width == 10)
        #expect(try BucketSpec.inline(member: "bucketPolicy", of: #"{"id": "1"}"#.utf8) == nil)
        #expect(try BucketSpec.inline(member: "bucketPolicy", of: #"{"bucketPolicy": null}"#.utf8) == nil)
    }

    @Test func inlineMemberRefusesAKeyGivenTwice() {
        let inside = #"{"bucketPolicy": {"name": "b", "variants": {"v": {"width": 10, "width": 20}}}}"#
        #expect(
            throws: VariantsError.invalidTransform(
                path: "bucketPolicy.variants.v.width", expected: "each key once", got: #"a second "width""#)
        ) { try BucketSpec.inline(member: "bucketPolicy", of: inside.utf8) }

        let outside = #"{"id": "1", "id": "2"}"#
        #expect(throws: VariantsError(.invalidRequest, "id: a key given twice")) {
            try BucketSpec.inline(member: "bucketPolicy", of: outside.utf8)
        }
    }
}
