/// What a batch run prints at its end: a table for people, or one JSON object for scripts (`--json`).
struct BatchSummary: Encodable, Equatable {
    var ok: Int
    var unreadable: Int
    var unsupported: Int
    var skipped: Int
    var errors: Int
    /// Files processed in this run (skipped ones excluded).
    var processed: Int
    /// Errors the next run retries.
    var retryable: Int
    var bytes: Int
    var seconds: Double
    var megabytesPerSecond: Double
    var imagesPerSecond: Double
    var interrupted: Bool
    var manifest: String

    init(_ tally: BatchTally, elapsed: Duration, interrupted: Bool, manifest: String) {
        ok = tally.ok
        unreadable = tally.unreadable
        unsupported = tally.unsupported
        skipped = tally.skipped
        errors = tally.allErrors
        processed = tally.processed
        retryable = tally.retryable
        bytes = tally.bytes
        let line = ProgressLine(tally: tally, elapsed: elapsed)
        seconds = (line.seconds * 1000).rounded() / 1000
        megabytesPerSecond = (line.megabytesPerSecond * 100).rounded() / 100
        imagesPerSecond = (line.imagesPerSecond * 100).rounded() / 100
        self.interrupted = interrupted
        self.manifest = manifest
    }

    /// The table: one row per outcome, then the throughput and where the manifest is.
    var table: String {
        let rows: [(String, Int, String)] = [
            ("ok", ok, ""),
            ("unreadable", unreadable, ""),
            ("unsupported", unsupported, ""),
            ("skipped", skipped, "already in the manifest"),
            ("errors", errors, retryable > 0 ? "\(retryable) retried by the next run" : ""),
        ]
        let width = String(rows.map(\.1).max() ?? 0).count
        var lines = [
            (interrupted ? "Interrupted" : "Finished") + " after \(ProgressLine.oneDecimal(seconds)) s: "
                + "\(processed) files processed, \(skipped) skipped"
        ]
        for (name, count, note) in rows {
            let padded = String(repeating: " ", count: width - String(count).count) + String(count)
            lines.append(
                "  " + name + String(repeating: " ", count: 13 - name.count) + padded
                    + (note.isEmpty ? "" : "  (\(note))"))
        }
        lines.append(
            "  throughput   \(ProgressLine.oneDecimal(megabytesPerSecond)) MB/s, "
                + "\(ProgressLine.oneDecimal(imagesPerSecond)) images/s")
        lines.append("Manifest: \(manifest)")
        if interrupted { lines.append("Run the same command again to resume.") }
        return lines.joined(separator: "\n")
    }
}
