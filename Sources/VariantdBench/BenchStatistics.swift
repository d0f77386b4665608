import Foundation

/// Turns raw timings into the report's figures.
enum BenchStatistics {
    /// The `fraction` quantile (0…1) by linear interpolation between closest ranks, as numpy's default
    /// does; 0 for no values.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard let first = sorted.first else { return 0 }
        guard sorted.count > 1 else { return first }
        let position = min(max(fraction, 0), 1) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The report row for a measurement. `sizes` gives each file's displayed size when the tool did not
    /// report it (command-line anchors), so megapixels are counted the same way for every tool.
    static func run(
        _ measurement: Measurement, tool: String, corpus: String,
        sizes: [String: (width: Int, height: Int)] = [:]
    ) -> BenchRun {
        let latencies = measurement.images.flatMap(\.seconds)
        let megapixels = measurement.images.reduce(0.0) { total, image in
            let size =
                image.width.flatMap { width in image.height.map { (width, $0) } }
                ?? sizes[image.file].map { ($0.width, $0.height) }
            return total + Double((size?.0 ?? 0) * (size?.1 ?? 0)) / 1e6 * Double(image.seconds.count)
        }
        let wall = measurement.wallSeconds
        let passes = Double(max(measurement.iterations, 1))
        return BenchRun(
            tool: measurement.tool ?? tool, corpus: corpus, jobs: measurement.jobs,
            images: measurement.images.count,
            imagesPerSecond: wall > 0 ? Double(latencies.count) / wall : 0,
            megapixelsPerSecond: wall > 0 ? megapixels / wall : 0,
            p50Milliseconds: percentile(latencies, 0.5) * 1000,
            p95Milliseconds: percentile(latencies, 0.95) * 1000,
            peakResidentMB: Double(measurement.peakResidentKiB) / 1024,
            failed: measurement.failed.map { ($0.file as NSString).lastPathComponent },
            stages: measurement.stages.mapValues { $0 / passes })
    }

    /// The report row for a row's rounds: pooled into one longer run, each round's rate kept beside it.
    static func run(
        rounds: [Measurement], tool: String, corpus: String, sizes: [String: (width: Int, height: Int)] = [:]
    ) -> BenchRun {
        var pooled = run(Measurement.sequential(rounds), tool: tool, corpus: corpus, sizes: sizes)
        if rounds.count > 1 {
            pooled.roundImagesPerSecond = rounds.map {
                run($0, tool: tool, corpus: corpus, sizes: sizes).imagesPerSecond
            }
        }
        return pooled
    }

    /// The report row for one timed batch of daemon answers: throughput and latency over the 200 answers,
    /// every status counted (`"error"`: no answer).
    static func serveRun(
        _ answers: [LoadClient.Answer], seconds: Double, corpus: String, clients: Int, images: Int,
        peakResidentMB: Double, failed: [String]
    ) -> BenchRun {
        let answered = answers.filter { $0.status == 200 }
        let latencies = answered.map(\.seconds)
        return BenchRun(
            tool: "variantd-serve", corpus: corpus, jobs: clients, images: images,
            imagesPerSecond: seconds > 0 ? Double(answered.count) / seconds : 0,
            megapixelsPerSecond: seconds > 0 ? answered.reduce(0) { $0 + $1.megapixels } / seconds : 0,
            p50Milliseconds: percentile(latencies, 0.5) * 1000,
            p95Milliseconds: percentile(latencies, 0.95) * 1000,
            p99Milliseconds: percentile(latencies, 0.99) * 1000, peakResidentMB: peakResidentMB,
            failed: failed, stages: [:], statuses: statuses(answers))
    }

    /// How many answers had each HTTP status.
    static func statuses(_ answers: [LoadClient.Answer]) -> [String: Int] {
        answers.reduce(into: [:]) { counts, answer in
            counts[answer.status.map { "\($0)" } ?? "error", default: 0] += 1
        }
    }
}
