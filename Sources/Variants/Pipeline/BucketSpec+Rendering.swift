extension BucketSpec {
    /// What a decoder child is given to make one rendition of `spec` for an object of the bucket named
    /// `bucket`: the variants that shape its decode and resize ladder, and the one of them to make.
    ///
    /// A spec the bucket's `declaration` has is made the way a job makes it, with every declared variant
    /// shaping the decode and the ladder (only this one encoded), so a rendition's bytes are a job's whoever
    /// asks for them. Any other spec is made alone, as a bucket of one variant named `Transform.name`.
    public static func rendering(_ spec: VariantSpec, in bucket: String, declaredAs declaration: BucketSpec?)
        -> (bucket: BucketSpec, wanted: Set<String>)
    {
        let specKey = RenditionKey.specKey(of: spec)
        if let declaration, declaration.variants.contains(where: { RenditionKey.specKey(of: $0) == specKey })
        {
            return (
                BucketSpec(
                    name: bucket, fileSizeLimit: nil, allowedMimeTypes: [], variants: declaration.variants),
                [specKey]
            )
        }
        let renamed = VariantSpec(
            name: Transform.name, width: spec.width, height: spec.height, fit: spec.fit,
            position: spec.position,
            format: spec.format, quality: spec.quality, qualityTarget: spec.qualityTarget, blur: spec.blur,
            sharpen: spec.sharpen,
            rotation: spec.rotation, background: spec.background, withoutEnlargement: spec.withoutEnlargement,
            animated: spec.animated, progressive: spec.progressive)
        return (
            BucketSpec(name: bucket, fileSizeLimit: nil, allowedMimeTypes: [], variants: [renamed]), [specKey]
        )
    }
}
