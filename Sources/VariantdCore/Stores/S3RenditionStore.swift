package import Variants

/// A rendition store in object storage: each rendition is an object at `PREFIX/<key>`, PUT with its
/// content type and an immutable `Cache-Control` (its key names its content).
///
/// S3 makes an object visible only once the whole PUT has arrived, so readers never see part of one. Every
/// file is PUT, with no HEAD before it: the pipeline writes only the renditions the listing did not find or
/// found damaged (which must be replaced), and one another worker stored meanwhile has the same bytes under
/// its content-addressed key. A write that fails part-way leaves whole objects that a later attempt finds
/// and reuses, never a partial one, and the caller commits no result naming the renditions it could not
/// store.
package struct S3RenditionStore: RenditionStore {
    package let client: S3Client
    package let location: S3Location

    package init(client: S3Client, location: S3Location) {
        self.client = client
        self.location = location
    }

    package func stored(sourceChecksum: String, specKeys: Set<String>) -> [RenditionFile] {
        let directory = RenditionKey.directory(ofSource: sourceChecksum)
        var found: [RenditionFile] = []
        do {
            var listed: [S3Object] = []
            try client.list(bucket: location.bucket, prefix: location.key(directory) + "/") { listed += $0 }
            for object in listed {
                let name = String(object.key.split(separator: "/").last ?? "")
                guard specKeys.contains(RenditionKey.specKey(ofFileName: name)) else { continue }
                let bytes = try client.read(bucket: location.bucket, key: object.key, maxBytes: object.size)
                found.append(RenditionFile(key: directory + "/" + name, bytes: bytes))
            }
        } catch {
            // Rendering again is always correct, only slower; a store that is down fails the write instead.
            return []
        }
        return found
    }

    package func write(_ files: [RenditionFile]) throws(VariantsError) {
        do {
            for file in files {
                let type =
                    Sniffer.sniff(file.bytes.prefix(Sniffer.prefixLength))?.mimeType
                    ?? "application/octet-stream"
                try client.put(
                    bucket: location.bucket, key: location.key(file.key), bytes: file.bytes,
                    contentType: type,
                    cacheControl: S3Client.immutable)
            }
        } catch {
            throw error.variantsError
        }
    }
}
