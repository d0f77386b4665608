import Foundation
import Testing

@testable import Variants

/// A pipeline over a fresh rendition folder and a bucket that declares one variant, `look` (by default a PNG
/// inside a square of `side`): what the colour suites render through, so a rendition's pixels can be
/// compared with a reference without a lossy encoder in the way.
struct LookPipeline {
    let store: RenditionFolder
    let pipeline: Pipeline
    let bucket: BucketDeclaration

    init(side: Int) throws {
        try self.init(settings: #"{"width":\#(side),"height":\#(side),"fit":"inside","format":"png"}"#)
    }

    /// `look` declared by `settings`, a variant's JSON object.
    init(settings: String) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-look-\(UUID().uuidString)")
        store = try RenditionFolder(root: root.path)
        pipeline = try Pipeline(store: store)
        bucket = try BucketDeclaration(
            parsing: Data(#"{"name":"look","variants":{"look":\#(settings)}}"#.utf8))
    }

    /// The `look` rendition of `bytes`, read back from the folder it was written to.
    func rendition(of bytes: [UInt8], path: String) throws -> [UInt8] {
        var timings = StageTimings()
        let metadata = try pipeline.run(
            RenditionOrder(ObjectRequest(bucket: "look", path: path), bucket: bucket), bytes: bytes,
            timings: &timings)
        let key = try #require(metadata.renditions?["look"]?.key)
        return try #require(store.existing(key), "the rendition was not written")
    }
}
