/// Where renditions are kept: the one interface every writer goes through, whatever stands behind it (a
/// folder on a file system, an object-storage bucket).
///
/// Keys are content addresses, `<sha[0..2]>/<sha>/<specKey>.<ext>` (`RenditionKey`): the same source bytes
/// rendered with the same effective settings always land on the same key, so a store never needs to
/// overwrite a rendition with different bytes.
public protocol RenditionStore: Sendable {
    /// The renditions already stored for the source with this SHA-256 whose spec key is in `specKeys`: what
    /// a job for the same bytes may reuse instead of rendering again.
    func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile]

    /// Stores every file or none: readers see a whole file or nothing, and a failure removes what the call
    /// wrote before failing (never a file that was already stored under its key).
    ///
    /// - Throws: `500 internal_error` naming the file that could not be written.
    func write(_ files: [RenditionFile]) throws(VariantsError)
}

/// How a rendition's key is made from what decides its bytes.
public enum RenditionKey {
    /// `<sha[0..2]>/<sha>/<specKey>.<ext>`.
    public static func make(sourceChecksum: String, specKey: String, fileExtension: String) -> String {
        "\(directory(ofSource: sourceChecksum))/\(specKey).\(fileExtension)"
    }

    /// The spec key a rendition's file name (`<specKey>.<ext>`, the last part of a key) begins with.
    public static func specKey(ofFileName name: some StringProtocol) -> String {
        String(name.prefix { $0 != "." })
    }

    /// The keys of a source's renditions by spec key, from the file names listed in its directory.
    public static func listing(_ names: [String], ofSource checksum: String) -> [String: String] {
        let directory = directory(ofSource: checksum)
        return Dictionary(
            names.map { (specKey(ofFileName: $0), directory + "/" + $0) },
            uniquingKeysWith: { first, _ in first })
    }

    /// Where every rendition of one source sits.
    public static func directory(ofSource checksum: String) -> String {
        "\(checksum.prefix(2))/\(checksum)"
    }

    /// The first 16 hex digits of the SHA-256 of the variant's canonical settings: it changes exactly when
    /// the rendering would.
    public static func specKey(of spec: VariantSpec) -> String {
        String(SHA256.hex(Array(spec.canonicalJSON.utf8)).prefix(16))
    }
}
