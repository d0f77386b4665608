import Variants

/// W1, the standard job every tool in the benchmark runs on each source: read, hash, sniff, probe, decode
/// with orientation, ThumbHash from a ≤ 100 × 100 rendition, and three variants, metadata stripped.
enum W1Workload {
    /// The bucket declaration, as text so it goes through `BucketDeclaration(parsing:)` like any other bucket; no
    /// byte limit, because the corpus includes a 200-megapixel photo.
    static let declaration = """
        { "name": "bench-w1",
          "variants": {
            "thumb":  { "width": 200, "height": 200, "fit": "cover", "format": "webp", "quality": 75 },
            "medium": { "width": 600, "height": 600, "fit": "inside", "format": "webp", "quality": 80 },
            "large":  { "width": 1600, "height": 1600, "fit": "inside", "format": "jpeg", "quality": 82 } } }
        """

    static let bucket: BucketDeclaration = {
        do {
            return try BucketDeclaration(parsing: declaration.utf8)
        } catch {
            preconditionFailure("the embedded W1 declaration is invalid: \(error)")
        }
    }()

    /// The AVIF comparison's quality: one 1600-pixel rendition at q60 (1600 × 1063 from a 3:2 photo).
    static let avifQuality = 60

    /// The AVIF comparison's bucket at `quality` (1…100).
    static func avifBucket(quality: Int) -> BucketDeclaration {
        let declaration = """
            { "name": "bench-avif",
              "variants": {
                "avif": { "width": 1600, "height": 1600, "fit": "inside", "format": "avif", "quality": \(quality) } } }
            """
        do {
            return try BucketDeclaration(parsing: declaration.utf8)
        } catch {
            preconditionFailure("the embedded AVIF declaration is invalid: \(error)")
        }
    }
}
