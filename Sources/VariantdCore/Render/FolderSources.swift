import Variants

/// Sources in a folder: a file's identity (device, inode, size, times) stands for its bytes, so a hit costs
/// one `stat` of the name asked for.
struct FolderSources: RenderSources {
    let folder: ObjectFolder
    private let checksums = ChecksumCache<FileIdentity>()

    init(_ folder: ObjectFolder) {
        self.folder = folder
    }

    /// Remembered under the name as asked: `stat` follows its links to the file that was resolved, checked
    /// to be inside the root and hashed, or finds another identity and sends the request the slow way.
    func rememberedChecksum(of source: String) -> String? {
        checksums.rememberedChecksum(ofFile: folder.path + "/" + source, as: Self.name(of: source))
    }

    func checksum(of source: String) throws(VariantsError) -> HashedSource {
        let real = try folder.resolve(source)
        guard
            let checksum = checksums.checksum(
                ofFile: folder.path + "/" + source, as: Self.name(of: source), readingFrom: real)
        else {
            throw VariantsError(.notFound, "no readable object at '\(source)'")
        }
        return HashedSource(checksum: checksum)
    }

    /// One name for all spellings of a path: `a/./b` and `a//b` are `a/b` to the file system, and each kept
    /// apart would be read and hashed again and held on its own. The name is still stated as asked, so a
    /// spelling that is not the file (`a/b/`) finds no identity.
    private static func name(of source: String) -> String {
        source.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
