import Glibc
package import Variants

/// A counter that processes on one machine draw numbers from, each number once: a draw appends one byte to a
/// file opened for appending, and the file offset the append leaves behind is the number. The kernel
/// serialises appends to a file, so two draws never end at the same offset and no lock is needed.
///
/// `bench --jobs N` splits one run's passes among its `bench-worker` processes with it; the product has no use
/// for it, so it lives with the benchmarks, in their `Bindings/` since it calls C.
package final class TicketFile: Sendable {
    private let descriptor: Int32

    /// Opens (creating if needed) the file at `path`; a new, empty file's first ticket is 0.
    package init(path: String) throws(VariantsError) {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(SystemCallError("open", about: path)) }
    }

    deinit {
        close(descriptor)
    }

    /// The next number nobody has drawn from this file yet.
    package func draw() throws(VariantsError) -> Int {
        var byte: UInt8 = 0
        guard write(descriptor, &byte, 1) == 1 else { throw Self.failure(SystemCallError("write")) }
        let end = lseek(descriptor, 0, SEEK_CUR)
        guard end > 0 else { throw Self.failure(SystemCallError("lseek")) }
        return Int(end) - 1
    }

    /// How many numbers have been drawn from this file so far, by every process.
    package func drawn() throws(VariantsError) -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure(SystemCallError("fstat")) }
        return Int(status.st_size)
    }

    private static func failure(_ error: SystemCallError) -> VariantsError {
        VariantsError(.internalError, "the ticket file: \(error)")
    }
}
