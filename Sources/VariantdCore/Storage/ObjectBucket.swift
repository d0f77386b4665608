import Variants

/// An object store in object storage: an object's key is its path relative to an `s3://BUCKET[/PREFIX]`
/// location. Sizes are checked with a HEAD before any byte is downloaded.
struct ObjectBucket: ObjectStore {
    let client: S3Client
    let location: S3Location

    func check(_ key: String) throws(VariantsError) {
        try ObjectFolder.checkRelative(key)
        do {
            _ = try client.size(bucket: location.bucket, key: location.key(key))
        } catch {
            throw error.variantsError
        }
    }

    func read(_ key: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
        try ObjectFolder.checkRelative(key)
        do {
            return try client.read(bucket: location.bucket, key: location.key(key), maxBytes: maxBytes)
        } catch {
            throw error.variantsError
        }
    }
}
