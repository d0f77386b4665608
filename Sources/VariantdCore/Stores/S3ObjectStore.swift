package import Variants

/// An object store in object storage: an object's key is its path relative to an `s3://BUCKET[/PREFIX]`
/// location. An object over the size limit is refused from the length its GET declares, before its body is
/// kept.
package struct S3ObjectStore: ObjectStore {
    package let client: S3Client
    package let location: S3Location

    package init(client: S3Client, location: S3Location) {
        self.client = client
        self.location = location
    }

    package func check(_ key: String) throws(VariantsError) {
        try ObjectFolder.checkRelative(key)
        do {
            _ = try client.size(bucket: location.bucket, key: location.key(key))
        } catch {
            throw error.variantsError
        }
    }

    package func read(_ key: String, maxBytes: Int) throws(VariantsError) -> [UInt8] {
        try ObjectFolder.checkRelative(key)
        do {
            return try client.read(bucket: location.bucket, key: location.key(key), maxBytes: maxBytes)
        } catch {
            throw error.variantsError
        }
    }
}
