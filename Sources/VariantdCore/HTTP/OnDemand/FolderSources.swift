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

    /// A source not remembered is read once: the bytes hashed go on to the decoder, so a miss reads and hashes
    /// it once; one over the hand-over limit is hashed as it streams and read again by the decoder pool.
    func checksum(of source: String) throws(VariantsError) -> HashedSource {
        let (path, name) = (folder.path + "/" + source, Self.name(of: source))
        if let remembered = checksums.rememberedChecksum(ofFile: path, as: name) {
            return HashedSource(checksum: remembered)
        }
        let real = try folder.resolve(source)
        if let read = checksums.bytesAndChecksum(
            ofFile: path, as: name, readingFrom: real, maxBytes: HashedSource.handOverLimit)
        {
            return HashedSource(checksum: read.checksum, bytes: read.bytes)
        }
        guard let checksum = checksums.checksum(ofFile: path, as: name, readingFrom: real) else {
            throw VariantsError(.notFound, "no readable object at '\(source)'")
        }
        return HashedSource(checksum: checksum)
    }

    /// One name for all spellings of a path: `a/./b` and `a//b` are `a/b` to the file system, and each kept
    /// apart would be read and hashed again and held on its own. The name is still stated as asked, so a
    /// spelling that is not the file (`a/b/`) finds no identity.
    private static func name(of source: String) -> String {
        let parts = source.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.contains(where: { $0.isEmpty || $0.elementsEqual(".".utf8) }) else { return source }
        return source.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
