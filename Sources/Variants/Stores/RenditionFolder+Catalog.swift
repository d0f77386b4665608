import Foundation

extension RenditionFolder: RenditionCatalog {
    public func listing(ofSource checksum: String) -> [String: String] {
        RenditionKey.listing(names(ofSource: checksum), ofSource: checksum)
    }

    public func file(of key: String) -> String? {
        root + "/" + key
    }

    public func body(of key: String) -> RenditionBody? {
        .file(path: root + "/" + key)
    }

    /// The files of one source's folder, without hidden ones.
    private func names(ofSource checksum: String) -> [String] {
        let folder = root + "/" + RenditionKey.directory(ofSource: checksum)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            !$0.hasPrefix(".")
        }
    }
}
