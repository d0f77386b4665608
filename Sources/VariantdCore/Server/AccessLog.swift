import Foundation
import Synchronization

/// The daemon's stderr, written in batches: a render line per request is its most frequent line, and a
/// `write` of its own was a tenth of a cache hit. Pending lines go out when they reach `batchBytes`, before
/// any event line (so that lines keep their order), and every `interval` while the daemon runs
/// (`flushing()`), so a line is at most that late.
final class AccessLog: Sendable {
    static let shared = AccessLog { FileHandle.standardError.write(Data($0)) }

    static let batchBytes = 32 * 1024
    static let interval = Duration.milliseconds(100)

    private let pending = Mutex<[UInt8]>([])
    private let output: @Sendable ([UInt8]) -> Void

    /// Lines go to `output`, a batch a call.
    init(output: @escaping @Sendable ([UInt8]) -> Void) {
        self.output = output
    }

    /// Adds a line, writing the batch when it is full.
    func append(_ line: String) {
        pending.withLock { pending in
            pending.append(contentsOf: line.utf8)
            pending.append(UInt8(ascii: "\n"))
            if pending.count >= Self.batchBytes { write(&pending) }
        }
    }

    /// Writes what is pending, then `line` when one is given.
    func flush(then line: String? = nil) {
        pending.withLock { pending in
            if let line {
                pending.append(contentsOf: line.utf8)
                pending.append(UInt8(ascii: "\n"))
            }
            write(&pending)
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

    private func write(_ pending: inout [UInt8]) {
        guard !pending.isEmpty else { return }
        output(pending)
        pending.removeAll(keepingCapacity: true)
    }
}
