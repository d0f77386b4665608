import Foundation

extension RenditionFolder: RenditionCatalog {
    public func specKeys(ofSource checksum: String) -> Set<String> {
        Set(names(ofSource: checksum).map(RenditionKey.specKey(ofFileName:)))
    }

    public func key(sourceChecksum checksum: String, specKey: String) -> String? {
        names(ofSource: checksum).first { $0.hasPrefix(specKey + ".") }.map {
            RenditionKey.directory(ofSource: checksum) + "/" + $0
        }
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
