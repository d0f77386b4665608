/// What one measuring process reports for one corpus: the raw timings, before any statistics. Our worker
/// (`variantd bench-worker`) and every anchor script (`anchors/w1.py`) print exactly this JSON.
struct Measurement: Sendable, Codable, Equatable {
    /// One source file that succeeded in the warm-up and was timed.
    struct Image: Sendable, Codable, Equatable {
        var file: String
        /// Seconds per timed iteration, the whole W1 for this file (read included).
        var seconds: [Double]
        /// Displayed size of the source, when the tool reports it.
        var width: Int?
        var height: Int?
    }

    /// A file the tool could not process in the warm-up, and what it said; it is not timed afterwards.
    struct Failure: Sendable, Codable, Equatable {
        var file: String
        var error: String
    }

    /// The tool's name in the report, when the process decides it (the pyvips anchors name their libvips).
    var tool: String?
    var jobs: Int
    var iterations: Int
    /// Wall-clock seconds of all timed iterations together.
    var wallSeconds: Double
    /// Peak resident set of the measuring process (or of its largest child, for command-line tools).
    var peakResidentKiB: Int
    var images: [Image]
    var failed: [Failure]
    /// Seconds per stage, summed over every timed iteration and worker.
    var stages: [String: Double]
    /// When the timed iterations began and ended, in seconds of the monotonic clock every process on the
    /// machine shares (our worker reports them; the anchors do not), so processes run side by side are
    /// timed from the first one's start to the last one's end.
    var timedFrom: Double? = nil
    var timedTo: Double? = nil

    enum CodingKeys: String, CodingKey {
        case tool, jobs, iterations, images, failed, stages
        case wallSeconds = "wall_seconds"
        case peakResidentKiB = "peak_rss_kib"
        case timedFrom = "timed_from"
        case timedTo = "timed_to"
    }
}
