import Synchronization
import Variants

/// Sources in object storage: an object's identity (`ETag`, `Last-Modified`, size) stands for its bytes, so
/// the object is downloaded and hashed only when that identity changed. An identity a HEAD or GET read is
/// trusted for `window` from when that request was sent, so the hits within it ask the store nothing at all
/// and are answered on the I/O thread: a deleted or overwritten object is served by no daemon longer than
/// the window, and a storage event that reaches this daemon ends it at once.
final class BucketSources: RenderSources {
    let bucket: S3ObjectStore
    /// Objects larger than this are refused, as the decoder pool refuses them.
    let maxBytes: Int
    /// How long an identity read from the store is trusted without asking again; zero asks on every request.
    let window: Duration
    private let checksums = ChecksumCache<S3ObjectIdentity>()
    private let trusted: BoundedMemo<String, Trusted>
    /// Moves on every forgotten identity, so a HEAD sent before an event cannot open a window after it.
    private let forgotten = Atomic<Int>(0)

    private struct Trusted: Sendable {
        var checksum: String
        var until: ContinuousClock.Instant
    }

    init(_ bucket: S3ObjectStore, maxBytes: Int, window: Duration = .zero) {
        self.bucket = bucket
        self.maxBytes = maxBytes
        self.window = window
        trusted = BoundedMemo(capacity: 65_536)
    }

    /// The checksum while the window of the identity last read holds; nil once it has passed.
    func rememberedChecksum(of source: String) -> String? {
        guard let entry = trusted[source], ContinuousClock.now < entry.until else { return nil }
        return entry.checksum
    }

    /// The object, downloaded and hashed by the pool: the HEAD that vouched for `checksum` says nothing of
    /// what a later GET returns.
    func bytes(of source: String, checksum: String) -> RenditionSource.Bytes {
        .stored(source)
    }

    func forgetIdentity(of source: String) {
        forgotten.add(1, ordering: .sequentiallyConsistent)
        trusted.forget(source)
        checksums.forget(source)
    }

    func checksum(of source: String) throws(VariantsError) -> HashedSource {
        if let remembered = rememberedChecksum(of: source) { return HashedSource(checksum: remembered) }
        let (client, name, key) = (bucket.client, bucket.location.bucket, bucket.location.key(source))
        // The window runs from before the request, so no answer is trusted longer than `window` after the
        // store gave it.
        let (asked, generation) = (ContinuousClock.now, forgotten.load(ordering: .sequentiallyConsistent))
        do throws(S3Error) {
            let current = try client.identity(bucket: name, key: key)
            if let remembered = checksums.checksum(of: source, identity: current) {
                trust(remembered, of: source, asked: asked, generation: generation)
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
            trust(checksum, of: source, asked: asked, generation: generation)
            return HashedSource(
                checksum: checksum,
                bytes: bytes.count <= HashedSource.handOverLimit
                    ? .inHand(.bytes(bytes), checksum: checksum) : nil)
        } catch {
            throw error.variantsError
        }
    }

    /// Opens the window unless an identity was forgotten since the request was sent.
    private func trust(
        _ checksum: String, of source: String, asked: ContinuousClock.Instant, generation: Int
    ) {
        guard window > .zero, forgotten.load(ordering: .sequentiallyConsistent) == generation else { return }
        trusted.remember(Trusted(checksum: checksum, until: asked + window), for: source)
    }
}
