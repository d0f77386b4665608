import Foundation

/// The non-empty lines of a file (or of standard input for `-`), read a megabyte at a time, without their
/// line ending (`\n` or `\r\n`). Counts the bytes consumed, for progress.
struct LineReader: Sequence {
    let path: String
    let unreadable: @Sendable (String) -> Void

    func makeIterator() -> Iterator {
        Iterator(path: path, unreadable: unreadable)
    }

    struct Iterator: IteratorProtocol {
        private let handle: FileHandle?
        private var buffer: [UInt8] = []
        private var start = 0
        private var ended = false

        init(path: String, unreadable: (String) -> Void) {
            if path == "-" {
                handle = .standardInput
            } else {
                handle = FileHandle(forReadingAtPath: path)
                if handle == nil { unreadable(path) }
            }
        }

        mutating func next() -> String? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    var end = newline
                    if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                    let line = String(decoding: buffer[start..<end], as: UTF8.self)
                    start = newline + 1
                    if line.isEmpty { continue }
                    return line
                }
                guard !ended, let handle else {
                    defer { start = buffer.count }
                    return start < buffer.count ? String(decoding: buffer[start...], as: UTF8.self) : nil
                }
                buffer.removeSubrange(..<start)
                start = 0
                let chunk = (try? handle.read(upToCount: 1 << 20)) ?? Data()
                if chunk.isEmpty { ended = true } else { buffer.append(contentsOf: chunk) }
            }
        }
    }
}
