import Synchronization
import Testing

@testable import VariantdCore

/// Render lines wait for the flushing task, leave before any event line, in the order they were written, and
/// are written by their own thread only past the most that may wait.
@Suite struct AccessLogTests {
    /// An access log whose batches are kept, one string a batch.
    private final class Batches: Sendable {
        let written = Mutex<[String]>([])
        var log: AccessLog {
            AccessLog { bytes in self.written.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        }
    }

    @Test func linesWaitUntilAnEventLineTakesThemOutFirst() {
        let batches = Batches()
        let log = batches.log
        log.append(#"{"event":"render","n":1}"#)
        log.append(#"{"event":"render","n":2}"#)
        #expect(batches.written.withLock { $0 }.isEmpty)
        log.flush(then: #"{"event":"stopped"}"#)
        let lines = [#"{"event":"render","n":1}"#, #"{"event":"render","n":2}"#, #"{"event":"stopped"}"#]
        let expected = lines.map { $0 + "\n" }.joined()
        #expect(batches.written.withLock { $0 } == [expected])
        log.flush()
        #expect(batches.written.withLock { $0 }.count == 1)
    }

    @Test func linesPastTheMostPendingAreWrittenByTheirThread() {
        let batches = Batches()
        let log = batches.log
        let line = String(repeating: "x", count: 1023)
        for _ in 0..<(AccessLog.mostPendingBytes / 1024 - 1) { log.append(line) }
        #expect(batches.written.withLock { $0 }.isEmpty)
        log.append(line)
        let written = batches.written.withLock { $0 }
        #expect(written.count == 1 && written.first?.utf8.count == AccessLog.mostPendingBytes)
    }

    @Test func theFlushingTaskWritesWhatWaitsAndOnceMoreWhenCancelled() async {
        let batches = Batches()
        let log = batches.log
        let flusher = Task { await log.flushing() }
        log.append("first")
        while batches.written.withLock({ $0 }).isEmpty { await Task.yield() }
        log.append("last")
        flusher.cancel()
        await flusher.value
        #expect(batches.written.withLock { $0 }.joined() == "first\nlast\n")
    }
}

extension AccessLog {
    fileprivate func append(_ line: String) {
        append { $0.append(contentsOf: line.utf8) }
    }
}
