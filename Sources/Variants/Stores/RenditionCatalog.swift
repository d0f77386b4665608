/// What serving renditions on demand asks of a rendition store beyond writing them: a source's distinct
/// transforms, one stored rendition by spec, and its bytes to send.
///
/// A source's renditions share one prefix, `<sha[0..2]>/<sha>/` (`RenditionKey.directory(ofSource:)`), so the
/// listing of that prefix is both the cache and the per-picture count: every process using the store sees
/// the same count, and it survives restarts. A folder answers from the file system; an object-storage
/// bucket from ListObjectsV2 and GET, blocking the calling thread.
public protocol RenditionCatalog: RenditionStore {
    /// The renditions stored for one source, from one listing: the key of each by its spec key. Its size is
    /// the source's count of distinct transforms, declared variants included.
    ///
    /// - Throws: `store_unavailable` when the store cannot be reached (the count cannot be known); the daemon
    ///   answers it `503 transform_busy`.
    func listing(ofSource checksum: String) throws(VariantsError) -> [String: String]

    /// The file a rendition would be in when the store is a folder, found without touching the disk; nil for
    /// object storage. What a cache hit sends without waiting on anything.
    func file(of key: String) -> String?

    /// How a stored rendition is sent; nil when it is not there (any more).
    ///
    /// - Throws: as `listing`.
    func body(of key: String) throws(VariantsError) -> RenditionBody?

    /// Removes every rendition of one source's bytes, declared and on-demand alike; how many went.
    ///
    /// - Throws: as `listing`; `500 internal_error` when a file cannot be removed.
    func forget(sourceChecksum checksum: String) throws(VariantsError) -> Int

    /// Removes one rendition; one already gone is no error, since another process may have removed it.
    ///
    /// - Throws: as `listing`; `500 internal_error` when the file cannot be removed.
    func remove(key: String) throws(VariantsError)
}

/// A stored rendition ready to be sent.
public enum RenditionBody: Sendable, Equatable {
    /// A file on the local file system, sent from disk without being read into memory first.
    case file(path: String)
    /// A small rendition downloaded from object storage, held for the one answer.
    case bytes([UInt8])
    /// A large one, downloaded to an unlinked spool file and sent from it: it costs no memory per request.
    case spooled(HeldFile)
}

extension RenditionKey {
    /// The media type of a rendition, from its key's extension (JPEG when no rendition type's matches).
    public static func contentType(of key: String) -> String {
        let written = OutputFormat.allCases.lazy.compactMap(\.writtenType).first {
            key.hasSuffix(".\($0.facts.extensions[0])")
        }
        return (written ?? .jpeg).mimeType
    }
}
