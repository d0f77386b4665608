/// Measurements of processes that ran at the same time, read as one run of all their jobs.
extension Measurement {
    /// One measurement of `parts` run side by side: their passes and jobs add up, the wall clock is the
    /// longest one's, the peak resident sets add up (the processes were resident together), and each file's
    /// timings and every stage's seconds are pooled. A file is failed if any part failed it.
    static func concurrent(_ parts: [Measurement]) -> Measurement {
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
            tool: parts.first?.tool, jobs: parts.reduce(0) { $0 + $1.jobs },
            iterations: parts.reduce(0) { $0 + $1.iterations },
            wallSeconds: parts.map(\.wallSeconds).max() ?? 0,
            peakResidentKiB: parts.reduce(0) { $0 + $1.peakResidentKiB },
            images: order.filter { image in !failed.contains { $0.file == image.file } }.map {
                Image(file: $0.file, seconds: seconds[$0.file] ?? [], width: $0.width, height: $0.height)
            },
            failed: failed,
            stages: parts.reduce(into: [:]) { total, part in total.merge(part.stages, uniquingKeysWith: +) })
    }
}
