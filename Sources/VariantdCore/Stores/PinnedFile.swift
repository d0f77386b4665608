import Variants

/// A stored file held open as it was when its identity was read, so that the bytes a decoder gets are the
/// ones that identity vouched for: a rename over its name leaves this file as it is, and a write in place
/// shows in its identity.
struct PinnedFile: Sendable {
    let file: HeldFile
    let identity: FileIdentity

    /// The regular file at `path`, opened; nil when there is none, or it cannot be opened now.
    init?(path: String) {
        guard let pinned = try? Self.open(path) else { return nil }
        self = pinned
    }

    private init(descriptor: FileDescriptor, identity: FileIdentity) {
        file = HeldFile(descriptor: descriptor, count: Int(identity.size))
        self.identity = identity
    }

    /// The regular file at `path`, opened; nil when the name leads nowhere (`ENOENT`, `ENOTDIR`), which is
    /// final.
    ///
    /// - Throws: `503 store_unavailable` when the system cannot open it now (`EIO`, `EMFILE`, `EACCES` …):
    ///   a passing fault of the host never makes an object look gone.
    static func open(_ path: String) throws(VariantsError) -> PinnedFile? {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .reading)
        } catch {
            if SystemCallError.isMissing(error.errorNumber) { return nil }
            throw VariantsError(.storeUnavailable, "\(path) cannot be opened now: \(error)")
        }
        guard let identity = FileIdentity(descriptor: descriptor) else {
            descriptor.close()
            return nil
        }
        return PinnedFile(descriptor: descriptor, identity: identity)
    }

    /// Whether nothing has written the file since it was opened.
    var isUnchanged: Bool { FileIdentity(descriptor: file.descriptor) == identity }

    /// The whole file, refused before reading when it is larger than `maxBytes`.
    ///
    /// - Throws: `413 payload_too_large`; `500 internal_error` when it cannot be read.
    func read(maxBytes: Int) throws(VariantsError) -> [UInt8] {
        guard file.count <= maxBytes else {
            throw VariantsError(
                .payloadTooLarge, "the object is \(file.count) bytes, over the limit of \(maxBytes)")
        }
        return try file.read()
    }
}
