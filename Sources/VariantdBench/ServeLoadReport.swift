/// The `serve` section of `variantd bench --serve --json`: the daemon driven over HTTP on loopback.
struct ServeLoadReport: Sendable, Codable, Equatable {
    /// The daemon's `--slots`.
    var slots: Int
    /// Timed requests per row.
    var requests: Int
    /// One row per (corpus, concurrent clients): `tool` is `variantd-serve`, `jobs` the clients, `images`
    /// the files timed, `peak_rss_mb` the daemon and its decoder children together, sampled every 0.2 s.
    var runs: [BenchRun]
    /// The daemon's and its children's memory at `start`, after the `warm-up` and after each row, at `end`.
    var memory: [MemorySample]
    var soak: Soak?
    var overload: Overload?
    /// The daemon's exit status after SIGTERM; nil when it had to be killed.
    var exitStatus: Int32?

    /// The daemon exited 0 on SIGTERM, the soak stayed within its memory bound, and the overload drew
    /// only 200s and 503s with Retry-After.
    var passed: Bool {
        let overloadClean = overload.map { overload in
            overload.busyWithoutRetryAfter == 0
                && overload.statuses.keys.allSatisfy { $0 == "200" || $0 == "503" }
        }
        return exitStatus == 0 && soak?.withinBound ?? true && overloadClean ?? true
    }

    /// Resident memory at one moment.
    struct MemorySample: Sendable, Codable, Equatable {
        var at: String
        /// Jobs answered by the soak so far (soak samples only).
        var jobs: Int?
        var daemonMB: Double
        /// Every decoder child together.
        var childrenMB: Double
        var children: Int

        enum CodingKeys: String, CodingKey {
            case at, jobs, children
            case daemonMB = "daemon_mb"
            case childrenMB = "children_mb"
        }
    }

    /// `--serve-soak J`: J small jobs, memory sampled every `interval` jobs.
    struct Soak: Sendable, Codable, Equatable {
        var jobs: Int
        var files: Int
        var imagesPerSecond: Double
        var statuses: [String: Int]
        /// After the soak's warm-up (jobs 0), then every `interval` jobs and at the end.
        var samples: [MemorySample]
        /// Daemon RSS at the end minus at the first interval (or at jobs 0 for a soak of one interval).
        var growthMB: Double
        var boundMB: Double
        /// The decoder children's RSS, all together, over the same span.
        var childrenGrowthMB: Double?
        var childrenBoundMB: Double?
        /// Both growths within their bounds.
        var withinBound: Bool

        enum CodingKeys: String, CodingKey {
            case jobs, files, statuses, samples
            case imagesPerSecond = "images_per_s"
            case growthMB = "growth_mb"
            case boundMB = "bound_mb"
            case childrenGrowthMB = "children_growth_mb"
            case childrenBoundMB = "children_bound_mb"
            case withinBound = "within_bound"
        }
    }

    /// `--overload`: jobs offered at a multiple of the rate the daemon sustained, from many clients.
    struct Overload: Sendable, Codable, Equatable {
        /// Images per second of the busiest row of the run (the most clients on the first corpus).
        var sustainablePerSecond: Double
        var offeredPerSecond: Double
        var seconds: Double
        var clients: Int
        var statuses: [String: Int]
        /// 503 answers without a `Retry-After` header (must be 0).
        var busyWithoutRetryAfter: Int
        var p99BusyMilliseconds: Double?
        var p99OkMilliseconds: Double?
        var before: MemorySample
        var after: MemorySample

        enum CodingKeys: String, CodingKey {
            case seconds, clients, statuses, before, after
            case sustainablePerSecond = "sustainable_per_s"
            case offeredPerSecond = "offered_per_s"
            case busyWithoutRetryAfter = "busy_without_retry_after"
            case p99BusyMilliseconds = "p99_503_ms"
            case p99OkMilliseconds = "p99_200_ms"
        }
    }

    enum CodingKeys: String, CodingKey {
        case slots, requests, runs, memory, soak, overload
        case exitStatus = "exit_status"
    }
}
