import Foundation

/// A file written front to back through a 64 KiB buffer: the contact sheet and its parts are written as
/// the manifest is read, never held whole.
final class BufferedFileWriter {
    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    init(creating path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.path = path
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Appends the whole of another (closed) file, in 1 MiB pieces.
    func append(contentsOf other: String) throws {
        try flush()
        let source = try FileHandle(forReadingFrom: URL(fileURLWithPath: other))
        defer { try? source.close() }
        while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty {
            try handle.write(contentsOf: chunk)
        }
    }

    func close() throws {
        try flush()
        try handle.close()
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
