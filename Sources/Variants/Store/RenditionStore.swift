import Foundation

/// Where renditions live on disk, keyed by the source's SHA-256 and a hash of the variant's canonical spec:
/// the same bytes uploaded twice reuse their renditions, and a changed spec gets a new key instead of a
/// stale file.
///
/// Layout: `ROOT/<sha[0..2]>/<sha>/<specKey>.<ext>`. Files appear whole or not at all: each is written to
/// `ROOT/.tmp/<pid>-<uuid>` (same file system), flushed, and renamed into place.
public struct RenditionStore: Sendable {
    public let root: String

    /// Where unfinished files wait; a dead writer's leftovers are removed by `removeLeftovers(of:)`.
    var temporaryDirectory: String { root + "/.tmp" }

    public init(root: String) throws(VariantsError) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        do {
            try FileManager.default.createDirectory(atPath: root + "/.tmp", withIntermediateDirectories: true)
        } catch {
            throw VariantsError(.internalError, "the rendition store \(root) cannot be created: \(error)")
        }
    }

    /// The path of a rendition relative to the root.
    public static func relativePath(sourceChecksum: String, specKey: String, fileExtension: String) -> String {
        "\(sourceChecksum.prefix(2))/\(sourceChecksum)/\(specKey).\(fileExtension)"
    }

    /// The bytes of a rendition already stored, if any.
    public func existing(_ relativePath: String) -> [UInt8]? {
        FileManager.default.contents(atPath: root + "/" + relativePath).map { [UInt8]($0) }
    }

    /// Writes every file or none: a failure removes what this call wrote before failing.
    public func write(_ files: [(relativePath: String, bytes: [UInt8])]) throws(VariantsError) {
        var written: [String] = []
        do {
            for file in files {
                let destination = root + "/" + file.relativePath
                let directory = (destination as NSString).deletingLastPathComponent
                try createDirectory(directory)
                let temporary = "\(temporaryDirectory)/\(FileSystem.processID)-\(UUID().uuidString)"
                do {
                    try FileSystem.writeDurably(file.bytes, to: temporary)
                    try FileSystem.replace(destination, with: temporary)
                } catch {
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw error
                }
                written.append(destination)
                FileSystem.syncDirectory(directory)
            }
        } catch {
            for path in written { try? FileManager.default.removeItem(atPath: path) }
            throw VariantsError(.internalError, "a rendition could not be written: \(error)")
        }
    }

    /// Removes the unfinished files a writer process left when it died.
    public func removeLeftovers(of processID: Int32) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryDirectory)) ?? []
        for name in names where name.hasPrefix("\(processID)-") {
            try? FileManager.default.removeItem(atPath: temporaryDirectory + "/" + name)
        }
    }

    private func createDirectory(_ path: String) throws(BackendError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BackendError(call: "mkdir", message: "\(path): \(error)")
        }
    }
}

