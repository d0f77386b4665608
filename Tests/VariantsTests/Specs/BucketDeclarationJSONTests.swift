import Testing

@testable import Variants

/// A bucket written back as declaration text parses to the same bucket.
@Suite struct BucketDeclarationJSONTests {
    @Test(arguments: ["post-images.json", "everything.json"])
    func declarationTextParsesBackToTheSameBucket(file: String) throws {
        let bucket = try BucketDeclaration(parsing: try Samples.bucket(file))
        #expect(try BucketDeclaration(parsing: bucket.declarationJSON.utf8) == bucket)
    }

    @Test func everySettingSurvivesTheRoundTrip() throws {
        let bucket = try BucketDeclaration.parsingEverySetting()
        let again = try BucketDeclaration.parsingEverySetting(bucket.declarationJSON)
        #expect(again == bucket)
        #expect(again.variants.map(\.canonicalJSON) == bucket.variants.map(\.canonicalJSON))
    }
}
