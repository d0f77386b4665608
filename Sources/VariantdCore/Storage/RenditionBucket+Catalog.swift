import Variants

extension RenditionBucket: RenditionCatalog {
    /// The largest rendition downloaded to answer a request: a body is held in memory for its one answer.
    static let largestBody = 256 << 20

    /// From one listing of the source's prefix: every process using the bucket counts the same keys.
    func specKeys(ofSource checksum: String) throws(VariantsError) -> Set<String> {
        Set(
            try names(under: RenditionKey.directory(ofSource: checksum) + "/").map {
                String($0.prefix { $0 != "." })
            })
    }

    func key(sourceChecksum checksum: String, specKey: String) throws(VariantsError) -> String? {
        let directory = RenditionKey.directory(ofSource: checksum)
        return try names(under: directory + "/" + specKey + ".").first.map { directory + "/" + $0 }
    }

    func file(of key: String) -> String? { nil }

    func body(of key: String) throws(VariantsError) -> RenditionBody? {
        do {
            return .bytes(
                try client.versioned(
                    bucket: location.bucket, key: location.key(key), maxBytes: Self.largestBody
                )
                .bytes)
        } catch  where error.kind == .notFound {
            return nil
        } catch {
            throw error.variantsError
        }
    }

    /// The last path part of every key listed under `prefix` (relative to the location).
    private func names(under prefix: String) throws(VariantsError) -> [String] {
        var names: [String] = []
        do {
            try client.list(bucket: location.bucket, prefix: location.key(prefix)) { objects in
                names += objects.map { String($0.key.split(separator: "/").last ?? "") }
            }
        } catch {
            throw error.variantsError
        }
        return names
    }
}
