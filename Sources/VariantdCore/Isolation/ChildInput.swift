#if canImport(Glibc)
    import Glibc
#endif

/// A decoder child's standard input: job lines, and the bytes that follow each, read straight into the
/// array that holds them.
final class ChildInput {
    private let descriptor: Int32
    /// Read but not yet consumed: the rest of a line read, or the first bytes after it.
    private var buffered: [UInt8] = []

    init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    /// The next line without its newline; nil at the end of input.
    func line() -> [UInt8]? {
        var scanned = 0
        while true {
            if let newline = buffered[scanned...].firstIndex(of: 0x0A) {
                let line = Array(buffered[..<newline])
                buffered.removeSubrange(...newline)
                return line
            }
            scanned = buffered.count
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { readSome(into: $0) }
            guard count > 0 else { return nil }
            buffered.append(contentsOf: chunk[..<count])
        }
    }

    /// The next `count` bytes; nil when the input ends first.
    func bytes(_ count: Int) -> [UInt8]? {
        let leftover = min(count, buffered.count)
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            _ = buffer.initialize(from: buffered[..<leftover])
            initialized = leftover
            while initialized < count {
                let read = readSome(
                    into: UnsafeMutableRawBufferPointer(
                        UnsafeMutableBufferPointer(rebasing: buffer[initialized...])))
                guard read > 0 else {
                    complete = false
                    return
                }
                initialized += read
            }
        }
        buffered.removeSubrange(..<leftover)
        return complete ? bytes : nil
    }

    private func readSome(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }
}
