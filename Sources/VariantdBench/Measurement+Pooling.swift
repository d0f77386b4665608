/// Several measurements of one tool on one corpus, read as one.
extension Measurement {
    /// One measurement of `parts` run side by side, sharing `passes` timed passes between them: their jobs
    /// add up, the wall clock runs from the first part's start to the last one's end (the longest part's,
    /// when a part did not say when it ran), the peak resident sets add up (the processes were resident
    /// together), and each file's timings and every stage's seconds are pooled. A file is failed if any part
    /// failed it.
    static func concurrent(_ parts: [Measurement], passes: Int) -> Measurement {
        let starts = parts.compactMap(\.timedFrom)
        let ends = parts.compactMap(\.timedTo)
        let wall =
            starts.count == parts.count && ends.count == parts.count
            ? (ends.max() ?? 0) - (starts.min() ?? 0) : parts.map(\.wallSeconds).max() ?? 0
        var measurement = pooled(
            parts, jobs: parts.reduce(0) { $0 + $1.jobs }, wallSeconds: wall,
            peakResidentKiB: parts.reduce(0) { $0 + $1.peakResidentKiB })
        measurement.iterations = passes
        return measurement
    }

    /// One measurement of `rounds` of the same run made one after another, interleaved with the other
    /// tools' rounds: their passes and wall clocks add up, the peak resident set is the largest, and each
    /// file's timings and every stage's seconds are pooled. A file is failed if any round failed it.
    static func sequential(_ rounds: [Measurement]) -> Measurement {
        pooled(
            rounds, jobs: rounds.first?.jobs ?? 1, wallSeconds: rounds.reduce(0) { $0 + $1.wallSeconds },
            peakResidentKiB: rounds.map(\.peakResidentKiB).max() ?? 0)
    }

    private static func pooled(_ parts: [Measurement], jobs: Int, wallSeconds: Double, peakResidentKiB: Int)
        -> Measurement
    {
        var seconds: [String: [Double]] = [:]
        var order: [Image] = []
        var failed: [Failure] = []
        for part in parts {
            for image in part.images {
                if seconds[image.file] == nil { order.append(image) }
                seconds[image.file, default: []] += image.seconds
            }
            for failure in part.failed where !failed.contains(where: { $0.file == failure.file }) {
                failed.append(failure)
            }
        }
        return Measurement(
            tool: parts.first?.tool, jobs: jobs, iterations: parts.reduce(0) { $0 + $1.iterations },
            wallSeconds: wallSeconds, peakResidentKiB: peakResidentKiB,
            images: order.filter { image in !failed.contains { $0.file == image.file } }.map {
                Image(file: $0.file, seconds: seconds[$0.file] ?? [], width: $0.width, height: $0.height)
            },
            failed: failed,
            stages: parts.reduce(into: [:]) { total, part in total.merge(part.stages, uniquingKeysWith: +) })
    }
}
