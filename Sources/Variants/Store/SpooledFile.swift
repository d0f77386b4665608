import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes in a spool file that has no name: it was unlinked when it was made, so the disk space comes back
/// when this value's last reference goes and its descriptor is closed, whatever became of the request. A
/// large request body arrives this way, and a rendition downloaded from object storage to be sent.
public final class SpooledFile: Sendable, Equatable {
    public let count: Int
    /// Read only with `pread`, never moved, so copies of it (the HTTP server sends from one) share it safely.
    package let descriptor: Int32

    /// Takes ownership of `descriptor`, whose first `count` bytes are the content.
    package init(descriptor: Int32, count: Int) {
        self.descriptor = descriptor
        self.count = count
    }

    deinit {
        close(descriptor)
    }

    /// The whole content, read straight into the array that holds it.
    public func read() throws(VariantsError) -> [UInt8] {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            complete = Self.read(descriptor, into: buffer.baseAddress!, count: count, at: 0)
            initialized = complete ? count : 0
        }
        guard complete else { throw VariantsError(.internalError, "the spool file cannot be read back") }
        return bytes
    }

    /// The lowercase hex SHA-256 of the content, read in 1 MiB pieces.
    public func sha256() throws(VariantsError) -> String {
        let digest = SHA256.Incremental()
        var piece = [UInt8](repeating: 0, count: min(count, 1 << 20))
        var offset = 0
        while offset < count {
            let length = min(piece.count, count - offset)
            let complete = piece.withUnsafeMutableBufferPointer {
                Self.read(descriptor, into: $0.baseAddress!, count: length, at: offset)
            }
            guard complete else { throw VariantsError(.internalError, "the spool file cannot be read back") }
            digest.update(piece[..<length])
            offset += length
        }
        return digest.finish()
    }

    public static func == (lhs: SpooledFile, rhs: SpooledFile) -> Bool { lhs === rhs }

    /// Reads exactly `count` bytes from `offset`; false when the file ends or fails first.
    private static func read(
        _ descriptor: Int32, into buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int
    )
        -> Bool
    {
        var done = 0
        while done < count {
            let read = pread(descriptor, buffer + done, count - done, off_t(offset + done))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            done += read
        }
        return true
    }
}
