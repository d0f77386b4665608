import Foundation
package import VariantdCore
import Variants

/// `variantd bench-worker`: one measurement of `variantd bench` in a fresh process, so its peak resident set
/// is that measurement's alone; prints one JSON object.
package struct BenchWorkerCommand: Subcommand {
    package static let name = "bench-worker"
    package static let isHidden = true
    package static let abstract = "Run one measurement for variantd bench (internal)."
    package static let usage =
        "bench-worker --mode <w1|write|decode|s3|avif|thumbhash> [--store <s3://…>] [--jobs <n>] [--iterations <n>] "
        + "[--warmup <n>] [--share <file> --parts <n>] [--out <file>] [--match-bytes <n>] [<file> ...]"
    package static let details = """
        Started by variantd bench. w1, write and decode print a Measurement of the files; avif encodes one
        file's AVIF rendition and keeps it at --out (with --match-bytes, at the quality whose file is closest to
        that size); thumbhash prints variantd thumbhash-bench's figures. With --share, the --parts workers started side by
        side draw their timed runs from one ticket file, --iterations passes over the files between them all,
        and begin them together, once all have warmed up.
        """

    enum Task {
        case corpus(BenchWorker, files: [String])
        case avif(source: String, iterations: Int, output: String, matchBytes: Int?)
        case thumbhash
    }

    let task: Task

    package init(parsing arguments: inout Arguments) throws(UsageError) {
        let mode = try arguments.option("--mode") ?? ""
        let jobs = try arguments.integer("--jobs", in: 1...256) ?? 1
        let iterations = try arguments.integer("--iterations", in: 1...10_000) ?? 3
        let warmups = try arguments.integer("--warmup", in: 1...100) ?? 1
        let output = try arguments.option("--out")
        let store = try arguments.option("--store")
        let matchBytes = try arguments.integer("--match-bytes", in: 1...(1 << 30))
        let share = try arguments.option("--share")
        let parts = try arguments.integer("--parts", in: 1...256) ?? 1
        let files = try arguments.positionals()
        switch mode {
        case "avif":
            guard let output, files.count == 1 else { throw UsageError("avif takes --out and one file") }
            task = .avif(source: files[0], iterations: iterations, output: output, matchBytes: matchBytes)
        case "thumbhash":
            task = .thumbhash
        default:
            guard let mode = BenchWorker.Mode(rawValue: mode) else {
                throw UsageError("'--mode' takes w1, write, decode, s3, avif or thumbhash, got '\(mode)'")
            }
            var worker = BenchWorker(mode: mode, jobs: jobs, iterations: iterations, warmups: warmups)
            if let share {
                do {
                    worker.share = BenchWorker.Sharing(tickets: try TicketFile(path: share), parts: parts)
                } catch {
                    throw UsageError(error.message)
                }
            }
            if mode == .s3 {
                guard let store, case .bucket(let location) = try StoreLocation(store) else {
                    throw UsageError("s3 mode takes --store s3://BUCKET[/PREFIX]")
                }
                worker.store = location
                worker.client = try StoreLocation.client(ProcessInfo.processInfo.environment)
            }
            task = .corpus(worker, files: files)
        }
    }

    package func run() async throws -> ExitStatus {
        switch task {
        case .corpus(let worker, let files):
            Console.out(try WireJSON.line(try worker.measure(files)))
        case .avif(let source, let iterations, let output, let matchBytes):
            let quality =
                try matchBytes.map { try AvifComparison.quality(matching: $0, source: source) }
                ?? W1Workload.avifQuality
            Console.out(
                try WireJSON.line(
                    try AvifComparison.measureOurs(
                        source: source, quality: quality, iterations: iterations, output: output,
                        tool: matchBytes == nil ? AvifComparison.oursTool : AvifComparison.matchedTool)))
        case .thumbhash:
            Console.out(try WireJSON.line(try ThumbHashBench.figures()))
        }
        return .success
    }
}
