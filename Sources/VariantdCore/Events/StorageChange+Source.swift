import Variants

extension StorageChange {
    /// The object's name relative to the root, as a render request names it: `<variantd bucket>/<path>`;
    /// nil when the change is outside the root.
    ///
    /// Under `s3://B/P` that is the key after `P/`, for changes in bucket `B` only; under a folder, which holds
    /// one folder per storage bucket, it is `bucket/key`. A name the object store would refuse
    /// (`ObjectFolder.checkRelative`: a `..` part, a NUL) or without both a bucket and a path is outside too.
    func source(under root: StoreLocation) -> String? {
        let source: String
        switch root {
        case .folder:
            source = bucket + "/" + key
        case .bucket(let location):
            guard bucket == location.bucket, key.utf8.starts(with: location.listPrefix.utf8) else {
                return nil
            }
            source = location.relative(key)
        }
        guard (try? ObjectFolder.checkRelative(source)) != nil, Self.split(source) != nil else { return nil }
        return source
    }

    /// A source's variantd bucket (its first part) and its path inside that bucket (the rest); nil when
    /// either is empty.
    static func split(_ source: String) -> (bucket: String, path: String)? {
        let bucket = source.utf8.prefix { $0 != UInt8(ascii: "/") }
        let path = source.utf8.dropFirst(bucket.count + 1)
        guard !bucket.isEmpty, !path.isEmpty else { return nil }
        return (String(Substring(bucket)), String(Substring(path)))
    }
}
