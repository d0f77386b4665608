import Foundation
import Synchronization
import Variants

/// The run's counts, and on a terminal a line redrawn in place on stderr while the run goes; nothing when
/// stderr is not a terminal (a log gets the summary only).
final class GCProgress: Sendable {
    private let shows: Bool
    private let state = Mutex(GCSummary())
    /// Renditions looked at so far, removed or kept.
    private let checked = Atomic<Int>(0)

    init(shows: Bool) {
        self.shows = shows
    }

    var summary: GCSummary { state.withLock { $0 } }

    func update(_ change: (inout GCSummary) -> Void) {
        state.withLock { change(&$0) }
    }

    func checkedOne() {
        checked.add(1, ordering: .relaxed)
    }

    /// `gc: 1234 sources (1200 reused), 5678 renditions checked, 12 removed`
    var line: String {
        let summary = summary
        let sources = summary.sourcesHashed + summary.sourcesReused
        let verb = summary.dryRun ? "to remove" : "removed"
        return "gc: \(sources) sources (\(summary.sourcesReused) reused), "
            + "\(checked.load(ordering: .relaxed)) renditions checked, \(summary.removed) \(verb)"
    }

    /// Redraws until cancelled; the caller cancels it and calls `finish()` when the run ends.
    func show() -> Task<Void, Never> {
        Task { [self] in
            guard shows else { return }
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                if Task.isCancelled { return }
                FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
            }
        }
    }

    /// Clears the line so the summary starts on a clean one.
    func finish() {
        if shows { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
