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
        checksums.rememberedChecksum(ofFile: folder.path + "/" + source)
    }

    func checksum(of source: String) throws(VariantsError) -> HashedSource {
        let real = try folder.resolve(source)
        guard let checksum = checksums.checksum(ofFile: folder.path + "/" + source, readingFrom: real) else {
            throw VariantsError(.notFound, "no readable object at '\(source)'")
        }
        return HashedSource(checksum: checksum)
    }
}
