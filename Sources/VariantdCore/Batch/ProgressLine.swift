/// The text of one progress report, from the tally and the time elapsed: pure, so its format is tested
/// without a terminal.
struct ProgressLine {
    var tally: BatchTally
    var elapsed: Duration

    /// The live bar for a terminal, redrawn in place; short enough for an 80-column terminal.
    /// `[#######-------------]  1234/5000  24.6 MB/s  41.2 img/s  ETA 1:31  3 failed`
    func bar(width: Int = 20) -> String {
        var filled = 0
        if let total = tally.total, total > 0 {
            filled = min(width, width * tally.done / total)
        }
        let bar =
            "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        return [
            bar, "\(tally.done)/\(tally.total.map(String.init) ?? "?")",
            "\(Self.oneDecimal(megabytesPerSecond)) MB/s",
            "\(Self.oneDecimal(imagesPerSecond)) img/s", "ETA \(eta)", "\(tally.failures) failed",
        ].joined(separator: "  ")
    }

    /// A line for a log (stderr not a terminal), printed every few seconds.
    /// `batch: 1234/5000 files (24%), 24.6 MB/s, 41.2 images/s, ETA 1:31, 3 failed`
    var plain: String {
        var files = "\(tally.done)/\(tally.total.map(String.init) ?? "?") files"
        if let total = tally.total, total > 0 { files += " (\(100 * tally.done / total)%)" }
        return "batch: \(files), \(Self.oneDecimal(megabytesPerSecond)) MB/s, "
            + "\(Self.oneDecimal(imagesPerSecond)) images/s, ETA \(eta), "
            + "\(tally.failures) failed"
    }

    var seconds: Double {
        elapsed / .seconds(1)
    }

    /// Source megabytes (10^6 bytes) read for decoding per second (`BatchTally.bytes`).
    var megabytesPerSecond: Double {
        seconds > 0 ? Double(tally.bytes) / 1e6 / seconds : 0
    }

    /// Files processed per second; skipped files do not count.
    var imagesPerSecond: Double {
        seconds > 0 ? Double(tally.processed) / seconds : 0
    }

    /// Time left for the files still to process at the pace of those processed so far (`m:ss` or
    /// `h:mm:ss`); `--:--` until there is a total and a pace. Skips, almost instant, are in neither: counted,
    /// they would make a resume's ETA look short.
    var eta: String {
        guard let remaining = tally.remaining, tally.processed > 0, seconds > 0 else { return "--:--" }
        return Self.clock(Int((Double(remaining) * seconds / Double(tally.processed)).rounded()))
    }

    static func clock(_ seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let mmss = (hours > 0 && minutes < 10 ? "0" : "") + "\(minutes):" + (rest < 10 ? "0" : "") + "\(rest)"
        return hours > 0 ? "\(hours):\(mmss)" : mmss
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
