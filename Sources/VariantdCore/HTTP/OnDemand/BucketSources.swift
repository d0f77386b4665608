import Variants

/// Sources in object storage: an object's identity (`ETag`, `Last-Modified`, size) stands for its bytes, so a
/// hit costs one HEAD, and the object is downloaded and hashed only when that identity changed.
struct BucketSources: RenderSources {
    let bucket: S3ObjectStore
    /// Objects larger than this are refused, as the decoder pool refuses them.
    let maxBytes: Int
    private let checksums = ChecksumCache<S3ObjectIdentity>()

    init(_ bucket: S3ObjectStore, maxBytes: Int) {
        self.bucket = bucket
        self.maxBytes = maxBytes
    }

    /// Always nil: even a remembered checksum needs a HEAD, which is not made on an I/O thread.
    func rememberedChecksum(of source: String) -> String? { nil }

    /// The object, downloaded and hashed by the pool: the HEAD that vouched for `checksum` says nothing of
    /// what a later GET returns.
    func bytes(of source: String, checksum: String) -> RenditionSource.Bytes {
        .stored(source)
    }

    func checksum(of source: String) throws(VariantsError) -> HashedSource {
        let (client, name, key) = (bucket.client, bucket.location.bucket, bucket.location.key(source))
        do throws(S3Error) {
            let current = try client.identity(bucket: name, key: key)
            if let remembered = checksums.checksum(of: source, identity: current) {
                return HashedSource(checksum: remembered)
            }
            guard current.size <= maxBytes else {
                throw S3Error(
                    .tooLarge, bucket.location.describe(source),
                    "the object is \(current.size) bytes, over the limit of \(maxBytes)")
            }
            // The identity remembered is the GET's own, so an overwrite between the HEAD and the GET is
            // remembered with the bytes it wrote, never with the old ones.
            let (bytes, identity) = try client.versioned(bucket: name, key: key, maxBytes: maxBytes)
            let checksum = SHA256.hex(bytes)
            checksums.remember(checksum, of: source, identity: identity)
            return HashedSource(
                checksum: checksum,
                bytes: bytes.count <= HashedSource.handOverLimit
                    ? .inHand(.bytes(bytes), checksum: checksum) : nil)
        } catch {
            throw error.variantsError
        }
    }
}
