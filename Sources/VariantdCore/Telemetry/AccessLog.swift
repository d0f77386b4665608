import Synchronization
import Variants

/// The daemon's stderr, written in batches and off the I/O threads: a render line per request is its most
/// frequent line, a `write` of its own would cost a tenth of a cache hit, and a write to a file can wait on
/// the file system's journal for milliseconds, which every connection of that thread would wait too. Pending
/// lines go out every `interval` from the task that runs `flushing()`, before any event line (so that lines
/// keep their order), and from the appending thread only past `mostPendingBytes`, which bounds the memory
/// they hold.
final class AccessLog: Sendable {
    /// A batch that cannot be written (stderr on a full disk) is lost, and counted: no answer waits on it.
    static let shared = AccessLog { batch in
        do throws(BackendError) {
            try FileDescriptor.standardError.write(batch)
        } catch {
            WriteHealth.shared.record(.accessLog, failure: error.errorNumber ?? 0)
        }
    }

    static let interval = Duration.milliseconds(100)
    static let mostPendingBytes = 1 << 20

    private let pending = Mutex<[UInt8]>([])
    /// The other buffer, which `pending` is swapped with to take a batch: held while the batch is written, so
    /// batches leave in the order they were taken, and kept with its capacity, so that steady traffic
    /// allocates and copies nothing to be logged.
    private let writing = Mutex<[UInt8]>([])
    private let output: @Sendable ([UInt8]) -> Void

    /// Lines go to `output`, a batch a call.
    init(output: @escaping @Sendable ([UInt8]) -> Void) {
        self.output = output
    }

    /// Adds the line `write` appends to the pending text; writes what is pending only when it is over
    /// `mostPendingBytes`.
    func append(_ write: (inout [UInt8]) -> Void) {
        let full = pending.withLock { pending in
            write(&pending)
            pending.append(UInt8(ascii: "\n"))
            return pending.count >= Self.mostPendingBytes
        }
        if full { flush() }
    }

    /// Writes what is pending, then `line` when one is given.
    func flush(then line: String? = nil) {
        writing.withLock { batch in
            pending.withLock { swap(&$0, &batch) }
            if let line {
                batch.append(contentsOf: line.utf8)
                batch.append(UInt8(ascii: "\n"))
            }
            if !batch.isEmpty { output(batch) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Flushes every `interval` until the task is cancelled, then once more.
    func flushing() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.interval)
            flush()
        }
        flush()
    }
}
