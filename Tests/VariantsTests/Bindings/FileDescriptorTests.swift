import Foundation
import Testing

@testable import Variants

#if canImport(Glibc)
    import Glibc
#endif

/// Reads and writes come back whole however the kernel splits them, an early end or a bad descriptor is a
/// `BackendError`, and positional reads leave the file position alone.
@Suite struct FileDescriptorTests {
    /// A pipe, close-on-exec at both ends (the tests start children elsewhere in this process).
    private static func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(ends[0]), FileDescriptor(ends[1]))
    }

    /// Writes `pieces` to `descriptor` one at a time, a pause before each so the reader sees them apart,
    /// then closes it.
    private static func writeSlowly(_ pieces: [[UInt8]], to descriptor: FileDescriptor) {
        let writer = Thread {
            for piece in pieces {
                Thread.sleep(forTimeInterval: 0.02)
                try? descriptor.write(piece)
            }
            descriptor.close()
        }
        writer.start()
    }

    @Test func readsExactlyWhatIsAskedForAcrossPiecesAfterWhatWasReadBefore() throws {
        let (input, output) = try Self.pipe()
        defer { input.close() }
        let pieces: [[UInt8]] = [[1, 2, 3], [4], Array(repeating: 5, count: 100_000), [6, 7]]
        Self.writeSlowly(pieces, to: output)
        let bytes = try input.read(exactly: 2 + 100_006, after: [9, 8])
        #expect(bytes == [9, 8] + pieces.joined())
        #expect(try input.read(upTo: 16) == [])
    }

    @Test func anInputThatEndsFirstIsAnError() throws {
        let (input, output) = try Self.pipe()
        defer { input.close() }
        Self.writeSlowly([[1, 2], [3]], to: output)
        #expect(throws: BackendError.self) { try input.read(exactly: 4) }
    }

    @Test func aBadDescriptorIsAnErrorForEveryCall() {
        let closed = FileDescriptor(-1)
        #expect(throws: BackendError.self) { try closed.read(upTo: 1) }
        #expect(throws: BackendError.self) { try closed.read(exactly: 1, at: 0) }
        #expect(throws: BackendError.self) { try closed.write([1]) }
        #expect(throws: BackendError.self) { try closed.duplicate() }
    }

    @Test func readsAtAnOffsetWithoutMovingThePosition() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bytes").path
        let content = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        let created = try FileDescriptor.open(path, .creatingNew)
        try created.write(content)
        created.close()
        let taken = #expect(throws: BackendError.self) { try FileDescriptor.open(path, .creatingNew) }
        #expect(taken?.description == "open: \(path): File exists (errno \(EEXIST))")

        let file = try FileDescriptor.open(path, .reading)
        defer { file.close() }
        #expect(try file.read(exactly: 10, at: 990) == Array(content[990...]))
        var piece = [UInt8](repeating: 0, count: 100)
        try file.read(into: &piece, count: 50, at: 200)
        #expect(piece[..<50] == content[200..<250] && piece[50...].allSatisfy { $0 == 0 })
        #expect(throws: BackendError.self) { try file.read(exactly: 11, at: 990) }
        #expect(try file.read(upTo: 4) == Array(content[..<4]))
    }

    @Test func aFullNonBlockingPipeTakesNothingAndSaysWhenItHasRoom() throws {
        let (input, output) = try Self.pipe()
        defer {
            input.close()
            output.close()
        }
        output.makeNonBlocking()
        #expect(try !input.wait(until: .readable, milliseconds: 10))
        let block = [UInt8](repeating: 7, count: 1 << 16)
        var written = 0
        while case let count = try output.writeSome(block[...]), count > 0 { written += count }
        #expect(written > 0)
        #expect(try output.writeSome(block[...]) == 0)
        #expect(try !output.wait(until: .writable, milliseconds: 10))
        #expect(try input.wait(until: .readable, milliseconds: 10))
        #expect(try input.read(exactly: written) == Array(repeating: 7, count: written))
        #expect(try output.wait(until: .writable, milliseconds: 1000))
    }
}
