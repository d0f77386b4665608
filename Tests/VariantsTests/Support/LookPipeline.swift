import Foundation

@testable import Variants

/// A pipeline over a fresh rendition folder and a bucket that declares one PNG variant, `look`, inside a
/// square of `side`: what the colour suites render through, so a rendition's pixels can be compared with a
/// reference without a lossy encoder in the way.
struct LookPipeline {
    let store: RenditionFolder
    let pipeline: Pipeline
    let bucket: BucketSpec

    init(side: Int) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-look-\(UUID().uuidString)")
        store = try RenditionFolder(root: root.path)
        pipeline = try Pipeline(store: store)
        bucket = try BucketSpec(
            parsing: Data(
                """
                {"name":"look","variants":{"look":{"width":\(side),"height":\(side),"fit":"inside",\
                "format":"png"}}}
                """.utf8))
    }
}
