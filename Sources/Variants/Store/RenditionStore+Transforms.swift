import Foundation

/// What on-demand rendering asks of the store: a source's folder (`<sha[0..2]>/<sha>/`) holds one file per
/// distinct transform of those bytes, declared variants included, so it is both the cache and the count.
extension RenditionStore {
    /// The absolute path of a rendition named relative to the root.
    public func path(_ relativePath: String) -> String {
        root + "/" + relativePath
    }

    /// The spec keys stored for one source: its distinct transforms. A listing of the folder, so every
    /// process sharing the store sees the same count, and it survives restarts.
    public func specKeys(ofSource checksum: String) -> Set<String> {
        Set(files(ofSource: checksum).map { String($0.prefix { $0 != "." }) })
    }

    /// The stored rendition of one spec of a source, relative to the root, if there is one.
    public func rendition(sourceChecksum checksum: String, specKey: String) -> String? {
        files(ofSource: checksum).first { $0.hasPrefix(specKey + ".") }.map {
            "\(checksum.prefix(2))/\(checksum)/\($0)"
        }
    }

    /// The media type of a stored rendition, from its extension.
    public static func contentType(of relativePath: String) -> String {
        let format: OutputFormat =
            switch (relativePath as NSString).pathExtension {
            case "png": .png
            case "webp": .webp
            case "avif": .avif
            default: .jpeg
            }
        return RenditionCheck.mediaType(of: format).mimeType
    }

    private func files(ofSource checksum: String) -> [String] {
        let folder = root + "/\(checksum.prefix(2))/\(checksum)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }
    }
}

extension VariantSpec {
    /// The name of the spec's renditions in the store: a hash of `canonicalJSON`, so settings that render
    /// the same share one file and any change that alters the output gets another.
    public var storeKey: String {
        String(SHA256.hex(Array(canonicalJSON.utf8)).prefix(16))
    }
}
