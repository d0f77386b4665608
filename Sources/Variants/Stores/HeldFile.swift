import Foundation

/// Bytes in a file held open by its descriptor, closed when this value's last reference goes. A large
/// request body and a rendition downloaded from object storage are spool files that have no name (unlinked
/// when made, so their space comes back then, whatever became of the request); a stored rendition sent on
/// hits, and a source held for its decode, keep the file they were opened as, whatever is renamed over it.
public final class HeldFile: Sendable, Equatable {
    public let count: Int
    /// Read only at an offset, never moved, so copies of it (the HTTP server sends from one) share it safely.
    package let descriptor: FileDescriptor

    /// Takes ownership of `descriptor`, whose first `count` bytes are the content.
    package init(descriptor: FileDescriptor, count: Int) {
        self.descriptor = descriptor
        self.count = count
    }

    deinit {
        descriptor.close()
    }

    /// The whole content, read straight into the array that holds it.
    public func read() throws(VariantsError) -> [UInt8] {
        do {
            return try descriptor.read(exactly: count, at: 0)
        } catch {
            throw Self.unreadable
        }
    }

    /// The lowercase hex SHA-256 of the content, read in 1 MiB pieces.
    public func sha256() throws(VariantsError) -> String {
        let digest = SHA256.Incremental()
        var piece = [UInt8](repeating: 0, count: min(count, 1 << 20))
        var offset = 0
        while offset < count {
            let length = min(piece.count, count - offset)
            do {
                try descriptor.read(into: &piece, count: length, at: offset)
            } catch {
                throw Self.unreadable
            }
            digest.update(piece[..<length])
            offset += length
        }
        return digest.finish()
    }

    public static func == (lhs: HeldFile, rhs: HeldFile) -> Bool { lhs === rhs }

    private static var unreadable: VariantsError {
        VariantsError(.internalError, "the file held open cannot be read back")
    }
}
