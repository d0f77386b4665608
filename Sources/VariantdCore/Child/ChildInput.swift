import Variants

/// A decoder child's standard input: job lines, and the bytes that follow each, read straight into the
/// array that holds them.
final class ChildInput {
    private let descriptor: FileDescriptor
    /// Read but not yet consumed: the rest of a line read, or the first bytes after it.
    private var buffered: [UInt8] = []

    init(descriptor: FileDescriptor = .standardInput) {
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
            guard let chunk = try? descriptor.read(upTo: 1 << 16), !chunk.isEmpty else { return nil }
            buffered.append(contentsOf: chunk)
        }
    }

    /// The next `count` bytes; nil when the input ends first.
    func bytes(_ count: Int) -> [UInt8]? {
        let leftover = min(count, buffered.count)
        let bytes = try? descriptor.read(exactly: count, after: buffered[..<leftover])
        buffered.removeSubrange(..<leftover)
        return bytes
    }
}
