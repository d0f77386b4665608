import Foundation
import Variants

extension S3RenditionStore: RenditionCatalog {
    /// The largest rendition downloaded to answer a request.
    static let largestBody = 256 << 20
    /// Renditions up to this size are held in memory for their answer; larger ones go to a spool file, so a
    /// request costs at most this much memory (a spool file on disk costs about a millisecond more).
    static let inMemoryBody = 1 << 20

    /// From one ListObjectsV2 of the source's prefix: every process using the bucket counts the same keys.
    func listing(ofSource checksum: String) throws(VariantsError) -> [String: String] {
        RenditionKey.listing(
            try names(under: RenditionKey.directory(ofSource: checksum) + "/"), ofSource: checksum)
    }

    func file(of key: String) -> String? { nil }

    /// One GET; a large rendition goes to a spool file that is unlinked before it is read, so nothing is left
    /// on disk whatever becomes of the answer.
    func body(of key: String) throws(VariantsError) -> RenditionBody? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-rendition-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fetched: S3Client.Fetched
        do {
            fetched = try client.fetch(
                bucket: location.bucket, key: location.key(key), maxBytes: Self.largestBody,
                spillingPast: Self.inMemoryBody, to: path)
        } catch  where error.kind == .notFound {
            return nil
        } catch {
            throw error.variantsError
        }
        switch fetched {
        case .bytes(let bytes):
            return .bytes(bytes)
        case .file(let count):
            do {
                return .spooled(
                    HeldFile(descriptor: try FileDescriptor.open(path, .reading), count: count))
            } catch {
                throw VariantsError(.internalError, "the downloaded rendition cannot be opened (\(error))")
            }
        }
    }

    /// One DeleteObject per key listed under the source's prefix.
    func forget(sourceChecksum checksum: String) throws(VariantsError) -> Int {
        let directory = RenditionKey.directory(ofSource: checksum)
        let names = try names(under: directory + "/")
        do {
            for name in names {
                try client.delete(bucket: location.bucket, key: location.key(directory + "/" + name))
            }
        } catch {
            throw error.variantsError
        }
        return names.count
    }

    /// One DeleteObject, which S3 answers alike whether the key was there or not.
    func remove(key: String) throws(VariantsError) {
        do {
            try client.delete(bucket: location.bucket, key: location.key(key))
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
