import Testing

@testable import Variants

/// A bucket written back as declaration text parses to the same bucket.
@Suite struct BucketSpecDeclarationJSONTests {
    @Test(arguments: ["post-images.json", "everything.json"])
    func declarationTextParsesBackToTheSameBucket(file: String) throws {
        let bucket = try BucketSpec(parsing: try Samples.bucket(file))
        #expect(try BucketSpec(parsing: bucket.declarationJSON.utf8) == bucket)
    }

    @Test func everySettingSurvivesTheRoundTrip() throws {
        let bucket = try BucketSpec(parsing: BucketSpec.everySetting.utf8)
        let again = try BucketSpec(parsing: bucket.declarationJSON.utf8)
        #expect(again == bucket)
        #expect(again.variants.map(\.canonicalJSON) == bucket.variants.map(\.canonicalJSON))
    }
}
