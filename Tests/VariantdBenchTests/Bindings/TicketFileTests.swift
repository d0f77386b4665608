import Foundation
import Synchronization
import Testing
import VariantdTestSupport
import Variants

@testable import VariantdBench

@Suite struct TicketFileTests {
    /// Four openings of one file, each as a process of its own would hold it, drawing at once: every number
    /// from 0 up comes out exactly once.
    @Test func drawsAtOnceFromSeveralOpeningsNeverRepeatANumber() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tickets").path
        let openings = try (0..<4).map { _ in try TicketFile(path: path) }
        let drawn = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: openings.count) { opening in
            var mine: [Int] = []
            for _ in 0..<500 { mine.append((try? openings[opening].draw()) ?? -1) }
            drawn.withLock { $0 += mine }
        }
        #expect(drawn.withLock { $0.sorted() } == Array(0..<2000))
        #expect(try openings[0].drawn() == 2000)
        #expect(try TicketFile(path: path).draw() == 2000)
    }

    @Test func aFileThatCannotBeOpenedIsAnError() {
        #expect(throws: VariantsError.self) { try TicketFile(path: "/nonexistent-folder/tickets") }
    }
}
