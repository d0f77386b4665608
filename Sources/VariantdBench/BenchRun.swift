/// One row of the report, one entry of the JSON `runs` array: a tool on a corpus at a number of jobs.
struct BenchRun: Sendable, Codable, Equatable {
    var tool: String
    var corpus: String
    var jobs: Int
    /// Files timed (the failed ones are not).
    var images: Int
    var imagesPerSecond: Double
    /// Source megapixels (displayed size) processed per second.
    var megapixelsPerSecond: Double
    var p50Milliseconds: Double
    var p95Milliseconds: Double
    /// Only the daemon-under-load rows have enough requests for a 99th percentile.
    var p99Milliseconds: Double? = nil
    var peakResidentMB: Double
    /// Names of the files the tool could not process.
    var failed: [String]
    /// Seconds per stage for one pass over the corpus (summed over workers).
    var stages: [String: Double]
    /// HTTP statuses answered in the timed requests, by code (`"error"`: no answer); daemon rows only.
    var statuses: [String: Int]? = nil
    /// Each round's images per second, in order, when the row was measured in more than one round
    /// (`--rounds`): the ratios round by round show how far the pooled one can be trusted.
    var roundImagesPerSecond: [Double]? = nil

    enum CodingKeys: String, CodingKey {
        case tool, corpus, jobs, images, failed, stages, statuses
        case imagesPerSecond = "images_per_s"
        case roundImagesPerSecond = "round_images_per_s"
        case megapixelsPerSecond = "mpix_per_s"
        case p50Milliseconds = "p50_ms"
        case p95Milliseconds = "p95_ms"
        case p99Milliseconds = "p99_ms"
        case peakResidentMB = "peak_rss_mb"
    }
}
