import Foundation
import Synchronization
import Variants

/// Streams a listing's object paths into the queue in batches, one transaction (SQLite) or one statement
/// (PostgreSQL) per batch. While the database writes a batch the next is read and checked (`inFlight`
/// batches are written at once: PostgreSQL takes them on as many connections), so reading the listing and
/// writing the queue overlap; a few batches are held at a time, and the memory stays flat however long the
/// listing.
/// Objects already waiting or running are left alone, so a run interrupted and started again adds only
/// what is missing.
struct BackfillRun {
    var queue: any JobQueue
    var listing: ObjectListing
    var bucket: String
    var version: String
    var batchSize = 1000
    /// Batches written at once while the next is read.
    static let inFlight = 2
    /// A bar redrawn in place on a terminal, or nothing.
    var showsProgress: Bool
    /// Stops after the batch in hand when it returns true (a signal).
    var stopRequested: @Sendable () -> Bool = { false }

    /// The summary so far and the listing bytes read, shared with the progress bar.
    private final class Tally: Sendable {
        let state = Mutex((summary: BackfillSummary(), bytes: 0))
    }

    func run() async -> BackfillSummary {
        let tally = Tally()
        let clock = ContinuousClock()
        let started = clock.now
        let total = listing.totalBytes
        let progress = showsProgress ? Task { await draw(tally, total: total, started: started) } : nil
        let unreadable: @Sendable (WalkProblem) -> Void = { problem in
            tally.state.withLock { $0.summary.record(problem.cause) }
            Console.error("variantd enqueue: \(problem)")
        }
        var batch: [NewJob] = []
        batch.reserveCapacity(batchSize)
        var writing: [Task<String?, Never>] = []
        var failure: String?
        for path in listing.paths(unreadable: unreadable) {
            do {
                batch.append(
                    try NewJob(request: ObjectRequest(checking: bucket, path: path), version: version))
            } catch {
                tally.state.withLock { $0.summary.refused += 1 }
                Console.error("variantd enqueue: refused '\(path)': \(error.message)")
            }
            tally.state.withLock {
                $0.summary.listed += 1
                $0.bytes += path.utf8.count + 1
            }
            guard batch.count >= batchSize else { continue }
            writing.append(write(batch, into: tally))
            batch.removeAll(keepingCapacity: true)
            if writing.count >= Self.inFlight { failure = await writing.removeFirst().value }
            if failure != nil || stopRequested() { break }
        }
        if failure == nil, !batch.isEmpty { writing.append(write(batch, into: tally)) }
        for task in writing {
            let failed = await task.value
            failure = failure ?? failed
        }
        if tally.state.withLock({ $0.summary.added }) > 0 {
            // Only the claims' plan depends on it, and autovacuum refreshes it later anyway: not a failure.
            try? await queue.refreshStatistics()
        }
        progress?.cancel()
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        return tally.state.withLock { state in
            var summary = state.summary
            summary.error = failure ?? (stopRequested() ? "stopped by a signal" : nil)
            summary.seconds = started.duration(to: clock.now) / .seconds(1)
            return summary
        }
    }

    /// Starts enqueueing the batch; the task gives the queue's error message when it failed.
    private func write(_ batch: [NewJob], into tally: Tally) -> Task<String?, Never> {
        let queue = queue
        return Task {
            do throws(QueueError) {
                let enqueued = try await queue.enqueue(batch: batch)
                tally.state.withLock { state in
                    state.summary.added += enqueued.added
                    state.summary.alreadyQueued += enqueued.alreadyQueued
                }
                return nil
            } catch {
                return error.message
            }
        }
    }

    /// Redraws the progress line every quarter second: a bar by the bytes of the list read when its size
    /// is known (`--from FILE`), the counts alone for a walk.
    private func draw(_ tally: Tally, total: Int?, started: ContinuousClock.Instant) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(250))
            var (summary, bytes) = tally.state.withLock { $0 }
            summary.seconds = started.duration(to: .now) / .seconds(1)
            var line = summary.progressText
            if let total, total > 0 {
                let filled = min(20, 20 * bytes / total)
                line =
                    "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
                    + "] \(min(100, 100 * bytes / total))%  " + line
            }
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
        }
    }
}
