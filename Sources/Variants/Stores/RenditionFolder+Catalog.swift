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

    /// The source's folder is first renamed into `.tmp` under this process's name, so it leaves the store
    /// at once and whole; a process that dies before removing it there leaves it to the next opening's sweep.
    public func forget(sourceChecksum checksum: String) throws(VariantsError) -> Int {
        let folder = root + "/" + RenditionKey.directory(ofSource: checksum)
        let count = names(ofSource: checksum).count
        let doomed = "\(temporaryDirectory)/\(FileSystem.processID)-forget-\(UUID().uuidString)"
        do {
            guard try FileSystem.move(folder, to: doomed) else { return 0 }
            try FileManager.default.removeItem(atPath: doomed)
        } catch {
            throw VariantsError(.internalError, "the renditions of \(checksum) cannot be removed: \(error)")
        }
        return count
    }

    public func remove(key: String) throws(VariantsError) {
        let path = root + "/" + key
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            guard FileManager.default.fileExists(atPath: path) else { return }
            throw VariantsError(.internalError, "the rendition \(key) cannot be removed: \(error)")
        }
    }

    /// The files of one source's folder, without hidden ones.
    private func names(ofSource checksum: String) -> [String] {
        let folder = root + "/" + RenditionKey.directory(ofSource: checksum)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            !$0.hasPrefix(".")
        }
    }
}
