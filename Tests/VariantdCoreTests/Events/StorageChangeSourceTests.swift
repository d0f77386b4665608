import Testing

@testable import VariantdCore

/// Changes mapped onto the daemon's object store, as render requests name sources.
@Suite struct StorageChangeSourceTests {
    private func change(_ bucket: String, _ key: String) -> StorageChange {
        StorageChange(bucket: bucket, key: key, kind: .written, version: "written:")
    }

    private let bucketRoot = StoreLocation.bucket(try! S3Location("s3://store/up"))

    @Test func underABucketRootOnlyKeysUnderItsPrefixMap() {
        #expect(change("store", "up/photos/a b.jpg").source(under: bucketRoot) == "photos/a b.jpg")
        #expect(change("store", "down/photos/a.jpg").source(under: bucketRoot) == nil)
        #expect(change("store", "upper/photos/a.jpg").source(under: bucketRoot) == nil)
        #expect(change("other", "up/photos/a.jpg").source(under: bucketRoot) == nil)
        #expect(change("store", "up/photos").source(under: bucketRoot) == nil, "a bucket without a path")
    }

    @Test func underAWholeBucketEveryKeyMaps() throws {
        let root = StoreLocation.bucket(try S3Location("s3://store"))
        #expect(change("store", "photos/a.jpg").source(under: root) == "photos/a.jpg")
    }

    @Test func underAFolderTheBucketIsTheFirstFolder() {
        let root = StoreLocation.folder("/srv/objects")
        #expect(change("pics", "photos/a bé.jpg").source(under: root) == "pics/photos/a bé.jpg")
        #expect(change("pics", "a.jpg").source(under: root) == "pics/a.jpg")
    }

    @Test func aParentPartOrNULMapsToNothing() {
        #expect(change("pics", "../../etc/passwd").source(under: .folder("/srv")) == nil)
        #expect(change("..", "etc/passwd").source(under: .folder("/srv")) == nil)
        #expect(change("store", "up/../secret/a.jpg").source(under: bucketRoot) == nil)
        #expect(change("store", "up/photos/a\u{0}.jpg").source(under: bucketRoot) == nil)
    }

    @Test func aSourceSplitsIntoItsBucketAndPath() {
        #expect(
            StorageChange.split("photos/2024/a.jpg").map { [$0.bucket, $0.path] } == ["photos", "2024/a.jpg"])
        #expect(StorageChange.split("photos") == nil)
        #expect(StorageChange.split("photos/") == nil)
        #expect(StorageChange.split("/a.jpg") == nil)
    }
}
