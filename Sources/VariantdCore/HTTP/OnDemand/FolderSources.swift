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

    /// A source not remembered is read and hashed once, through the file held open: up to the hand-over limit
    /// its bytes go on to the decoder, and a larger file goes on held open, to be read once more (not hashed)
    /// when a decoder is free.
    func checksum(of source: String) throws(VariantsError) -> HashedSource {
        let (path, name) = (folder.path + "/" + source, Self.name(of: source))
        if let remembered = checksums.rememberedChecksum(ofFile: path, as: name) {
            return HashedSource(checksum: remembered)
        }
        guard let pinned = try PinnedFile.open(try folder.resolve(source)) else {
            throw VariantsError(.notFound, "no readable object at '\(source)'")
        }
        if pinned.file.count <= HashedSource.handOverLimit {
            let bytes = try pinned.read(maxBytes: HashedSource.handOverLimit)
            let checksum = SHA256.hex(bytes)
            checksums.remember(checksum, of: pinned, at: path, as: name)
            return HashedSource(checksum: checksum, bytes: .inHand(.bytes(bytes), checksum: checksum))
        }
        let checksum = try pinned.file.sha256()
        checksums.remember(checksum, of: pinned, at: path, as: name)
        return HashedSource(checksum: checksum, bytes: .pinned(pinned, checksum: checksum))
    }

    /// Nothing to end: every hit `stat`s the file, which sees a change as soon as it is made.
    func forgetIdentity(of source: String) {}

    func bytes(of source: String, checksum: String) -> RenditionSource.Bytes {
        if let pinned = PinnedFile(path: folder.path + "/" + source),
            checksums.checksum(of: Self.name(of: source), identity: pinned.identity) == checksum
        {
            return .pinned(pinned, checksum: checksum)
        }
        return .stored(source)
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
