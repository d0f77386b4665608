import Foundation
import Synchronization
import Variants

/// Keeps the run's tally and shows it on stderr while the run goes: a bar redrawn in place on a terminal,
/// a plain line every two seconds otherwise (a log, CI), nothing with `--quiet`.
final class ProgressReporter: Sendable {
    enum Style: Sendable {
        case bar, lines, none

        /// A bar when stderr is a terminal, lines when it is not.
        static func forStandardError(quiet: Bool) -> Style {
            quiet ? .none : FileDescriptor.standardError.isTerminal ? .bar : .lines
        }

        var interval: Duration {
            self == .bar ? .milliseconds(250) : .seconds(2)
        }
    }

    let style: Style
    private let started = ContinuousClock.now
    private let state = Mutex(BatchTally())

    init(style: Style) {
        self.style = style
    }

    var tally: BatchTally { state.withLock { $0 } }

    var elapsed: Duration { started.duration(to: .now) }

    func update(_ change: (inout BatchTally) -> Void) {
        state.withLock { change(&$0) }
    }

    /// Redraws until cancelled; the caller cancels it and calls `finish()` when the run ends.
    func show() -> Task<Void, Never> {
        Task { [self] in
            guard style != .none else { return }
            while !Task.isCancelled {
                try? await Task.sleep(for: style.interval)
                if Task.isCancelled { return }
                draw()
            }
        }
    }

    /// Clears the bar so the summary starts on a clean line.
    func finish() {
        if style == .bar { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    /// Prints a notice on its own line without breaking the bar (redrawn at the next tick).
    func notice(_ text: String) {
        if style == .bar { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        Console.error(text)
    }

    private func draw() {
        let line = ProgressLine(tally: tally, elapsed: elapsed)
        switch style {
        case .bar: FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line.bar()).utf8))
        case .lines: Console.error(line.plain)
        case .none: break
        }
    }
}
