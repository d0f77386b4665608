import Foundation
import Variants

/// A body in a spool file that has no name: it was unlinked when it was made, so the disk space comes back
/// when this value's last reference goes and its descriptor is closed, whatever became of the request.
final class SpooledBody: Sendable {
    let count: Int
    private let descriptor: Int32

    /// Takes ownership of `descriptor`, whose first `count` bytes are the body.
    init(descriptor: Int32, count: Int) {
        self.descriptor = descriptor
        self.count = count
    }

    deinit {
        close(descriptor)
    }

    /// The body's bytes, read straight into the array that holds them.
    func read() throws(VariantsError) -> [UInt8] {
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let read = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(initialized))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    complete = false
                    return
                }
                initialized += read
            }
        }
        guard complete else {
            throw VariantsError(.internalError, "the spooled request body cannot be read back")
        }
        return bytes
    }
}
