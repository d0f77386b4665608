import Foundation

/// The lines of a manifest, read in 1 MiB pieces: only the piece and the line being put together are held,
/// whatever the size of the file.
enum ManifestLines {
    /// Calls `body` with every complete line, without its newline, and returns the length up to the end of
    /// the last one. A last line without its newline (a write torn by a crash) is not passed.
    @discardableResult
    static func forEach(in path: String, _ body: (ArraySlice<UInt8>) throws -> Void) throws -> UInt64 {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var complete: UInt64 = 0
        var pending: [UInt8] = []
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                try body(pending[start..<newline])
                complete += UInt64(newline - start + 1)
                start = newline + 1
            }
            pending.removeSubrange(..<start)
        }
        return complete
    }
}
