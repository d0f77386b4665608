extension BucketDeclaration {
    /// The bucket used when none is declared: a WebP thumbnail, a WebP medium and a JPEG large rendition.
    ///
    /// Kept as declaration text, not as Swift values, so it goes through the same rules as any other bucket
    /// and stays byte for byte the same as `Samples/buckets/post-images.json` (a test compares them).
    public static let `default`: BucketDeclaration = {
        do {
            return try BucketDeclaration(parsing: defaultDeclaration.utf8)
        } catch {
            preconditionFailure("the embedded default bucket is invalid: \(error)")
        }
    }()

    static let defaultDeclaration = """
        { "name": "post-images",
          "fileSizeLimit": 10485760,
          "allowedMimeTypes": ["image/*"],
          "variants": {
            "thumb":  { "width": 200, "height": 200, "fit": "cover", "format": "webp", "quality": 75 },
            "medium": { "width": 600, "fit": "inside", "format": "webp" },
            "large":  { "width": 1600, "height": 1600, "fit": "inside", "format": "jpeg", "quality": 82 } } }

        """
}
