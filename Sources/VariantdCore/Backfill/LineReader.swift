import Foundation

/// The non-empty lines of a file (or of standard input for `-`), read a megabyte at a time, without their
/// line ending (`\n` or `\r\n`). Counts the bytes consumed, for progress. A line that is not UTF-8 names no
/// object path (it would be read with U+FFFD for its bad bytes, a path nobody stored): it is reported to
/// `unreadable` by its number and left out.
struct LineReader: Sequence {
    let path: String
    let unreadable: @Sendable (String) -> Void

    func makeIterator() -> Iterator {
        Iterator(path: path, unreadable: unreadable)
    }

    struct Iterator: IteratorProtocol {
        private let handle: FileHandle?
        private let path: String
        private let unreadable: (String) -> Void
        private var number = 0
        private var buffer: [UInt8] = []
        private var start = 0
        private var ended = false

        init(path: String, unreadable: @escaping (String) -> Void) {
            self.path = path
            self.unreadable = unreadable
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
                    let bytes = buffer[start..<newline]
                    start = newline + 1
                    guard let line = text(bytes), !line.isEmpty else { continue }
                    return line
                }
                guard !ended, let handle else {
                    defer { start = buffer.count }
                    guard start < buffer.count, let line = text(buffer[start...]), !line.isEmpty else {
                        return nil
                    }
                    return line
                }
                buffer.removeSubrange(..<start)
                start = 0
                let chunk = (try? handle.read(upToCount: 1 << 20)) ?? Data()
                if chunk.isEmpty { ended = true } else { buffer.append(contentsOf: chunk) }
            }
        }

        /// The next line's text without the `\r` of a CRLF ending (the last line's too, cut after its CR), or
        /// nil (said to `unreadable`) when it is not UTF-8.
        private mutating func text(_ line: ArraySlice<UInt8>) -> String? {
            number += 1
            let bytes = line.last == 0x0D ? line.dropLast() : line
            guard let line = String(validating: bytes, as: UTF8.self) else {
                unreadable("line \(number) of \(path == "-" ? "standard input" : path) (not UTF-8)")
                return nil
            }
            return line
        }
    }
}
