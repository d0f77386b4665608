import Foundation
import Synchronization
import Testing
import VariantdTestSupport

@testable import VariantdCore

/// The lines of an object list as `enqueue --from` reads them.
@Suite struct LineReaderTests {
    /// The lines of `bytes` written to a file, and what was reported unreadable.
    private func read(_ bytes: [UInt8]) throws -> (lines: [String], unreadable: [String]) {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("objects.txt").path
        try Data(bytes).write(to: URL(fileURLWithPath: list))
        let reported = Mutex<[String]>([])
        let lines = Array(LineReader(path: list) { path in reported.withLock { $0.append(path) } })
        return (lines, reported.withLock { $0 })
    }

    /// A line that is not UTF-8 names no object: read with U+FFFD for its bad bytes, it would enqueue a job
    /// for a path nobody stored.
    @Test func reportsALineThatIsNotUTF8() throws {
        let (lines, unreadable) = try read(Array("ok.jpg\na".utf8) + [0xFF] + Array("b.jpg\r\nlast.jpg".utf8))
        #expect(lines == ["ok.jpg", "last.jpg"])
        #expect(unreadable.count == 1 && unreadable.first?.contains("line 2") == true)
    }

    /// The last line loses its `\r` like every other, with or without the `\n` after it: a list cut after the
    /// CR of its last CRLF must not enqueue a path ending in a carriage return.
    @Test func theLastLineLosesItsCarriageReturnToo() throws {
        #expect(try read(Array("a.jpg\r\nb.jpg\r".utf8)).lines == ["a.jpg", "b.jpg"])
    }
}
