import Variants

extension DecodeJob {
    /// A job that renders one transform of an object into the store: a declaration of one variant named
    /// `Transform.name` with the spec's canonical settings, which the child reads back to an equal spec.
    static func rendering(
        _ spec: VariantSpec, sourcePath: String, bucket: String, path: String, storeRoot: String
    ) -> DecodeJob {
        let declaration = "{\"name\":\"\(bucket)\",\"variants\":{\"\(Transform.name)\":\(spec.canonicalJSON)}}"
        return DecodeJob(
            sourcePath: sourcePath, request: ObjectRequest(bucket: bucket, path: path),
            bucketDeclaration: declaration, storeRoot: storeRoot)
    }
}
