import Foundation
import Synchronization
import VariantdCore
import Variants

/// Measures one corpus inside a fresh `variantd bench-worker` process, so the peak resident set it reports
/// belongs to that corpus alone: a warm-up pass finds the files that fail, then `iterations` timed passes
/// over the others run on `jobs` threads, each running the synchronous pipeline.
struct BenchWorker: Sendable {
    enum Mode: String, Sendable, CaseIterable {
        /// W1 rendered and checked in memory, nothing written.
        case w1
        /// W1 with the renditions written durably into a rendition store in a temporary directory.
        case write
        /// Sniff, probe and decode to the size W1 renders from: the floor under W1.
        case decode
        /// W1 with the source read from object storage (GET) and the renditions stored there (LIST, PUT), at
        /// `store`: `write` with both ends in an S3-compatible store.
        case s3
    }

    var mode: Mode
    var jobs: Int
    var iterations: Int
    var warmups: Int
    /// The object-storage location of `s3` mode: sources are uploaded under `sources/` (untimed) and
    /// renditions stored under `renditions/`.
    var store: S3Location? = nil
    var client: S3Client? = nil
    /// Processes side by side that share their timed passes, as the product's slots share one queue:
    /// `iterations` passes in all, over every process drawing from `tickets`. Each draws one ticket when it
    /// has warmed up and waits until all `parts` have, so that their timed parts begin together (a process
    /// still warming up does work no pass counts); the tickets after those are the timed runs.
    struct Sharing: Sendable {
        var tickets: TicketFile
        var parts: Int

        /// The longest wait for the other processes to warm up.
        static let patience: Duration = .seconds(300)

        /// Says this process is ready and waits until every other one is.
        func gather() throws(VariantsError) {
            _ = try tickets.draw()
            let deadline = ContinuousClock.now + Self.patience
            while try tickets.drawn() < parts {
                guard ContinuousClock.now < deadline else {
                    throw VariantsError(.internalError, "the other bench workers did not finish warming up")
                }
                Thread.sleep(forTimeInterval: 0.001)
            }
        }

        /// The next timed run's number, counting from 0.
        func draw() throws(VariantsError) -> Int {
            try tickets.draw() - parts
        }
    }

    var share: Sharing? = nil

    /// One timed pass over one file.
    private struct Sample {
        var seconds: Double
        var width: Int
        var height: Int
        var timings: StageTimings
    }

    /// What the worker threads share: the next task and everything measured so far.
    private final class Progress: Sendable {
        struct State {
            var next = 0
            var seconds: [[Double]]
            var stages = StageTimings()
            var error: VariantsError?
        }

        let state: Mutex<State>

        init(files: Int) {
            state = Mutex(State(seconds: Array(repeating: [], count: files)))
        }

        /// The next of `tasks` timed runs, from `share` when there is one; nil when all are taken or one
        /// has failed.
        func claim(below tasks: Int, from share: Sharing?) throws(VariantsError) -> Int? {
            let local = state.withLock { state -> Int? in
                defer { state.next += 1 }
                return state.error == nil ? state.next : nil
            }
            guard let local else { return nil }
            let task = try share?.draw() ?? local
            return task < tasks ? task : nil
        }
    }

    func measure(_ files: [String]) throws -> Measurement {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "variantd-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pipelines = try (0..<jobs).map { worker throws(VariantsError) in
            switch mode {
            case .write: try Pipeline(store: RenditionFolder(root: scratch.path + "/worker-\(worker)"))
            case .s3: try Pipeline(store: try s3Renditions())
            case .w1, .decode: try Pipeline(store: nil)
            }
        }
        try uploadSources(files)

        var failed: [Measurement.Failure] = []
        var timed: [(file: String, width: Int, height: Int)] = []
        for file in files {
            do {
                let sample = try run(file, with: pipelines[0])
                timed.append((file, sample.width, sample.height))
            } catch {
                failed.append(Measurement.Failure(file: file, error: error.message))
            }
        }
        for _ in 1..<max(warmups, 1) {
            for entry in timed { _ = try? run(entry.file, with: pipelines[0]) }
        }

        let timedFiles = timed.map(\.file)
        let progress = Progress(files: timed.count)
        let tasks = timed.count * iterations
        try share?.gather()
        let timedFrom = ProcessInfo.processInfo.systemUptime
        let started = ContinuousClock.now
        let threads = DispatchGroup()
        for worker in 0..<jobs {
            threads.enter()
            let pipeline = pipelines[worker]
            let thread = Thread { [self] in
                defer { threads.leave() }
                while true {
                    do throws(VariantsError) {
                        guard let task = try progress.claim(below: tasks, from: share) else { return }
                        let index = task % timedFiles.count
                        let sample = try run(timedFiles[index], with: pipeline)
                        progress.state.withLock { state in
                            state.seconds[index].append(sample.seconds)
                            state.stages.merge(sample.timings)
                        }
                    } catch {
                        progress.state.withLock { $0.error = error }
                    }
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        threads.wait()
        let wall = started.duration(to: .now)
        let timedTo = ProcessInfo.processInfo.systemUptime
        let state = progress.state.withLock { $0 }
        if let error = state.error { throw error }
        return Measurement(
            tool: nil, jobs: jobs, iterations: iterations, wallSeconds: wall / .seconds(1),
            peakResidentKiB: ResourceUsage.peakResidentKiB,
            images: timed.enumerated().map { index, entry in
                Measurement.Image(
                    file: entry.file, seconds: state.seconds[index], width: entry.width, height: entry.height)
            },
            failed: failed, stages: state.stages.seconds, timedFrom: timedFrom, timedTo: timedTo)
    }

    /// Runs the mode's work on one file, timing it from the read on; renditions written in `write` mode are
    /// removed afterwards, untimed, so the next pass writes them again.
    private func run(_ file: String, with pipeline: Pipeline) throws(VariantsError) -> Sample {
        var timings = StageTimings()
        let started = ContinuousClock.now
        let bytes = try timings.measure(.read) { () throws(VariantsError) in
            if mode == .s3 {
                return try s3Objects().read(Self.sourceKey(file), maxBytes: Limits().maxInputBytes)
            }
            return try SourceFile.read(file, maxBytes: .max)
        }
        let request = ObjectRequest(bucket: W1Workload.bucket.name, path: file)
        let size: (width: Int, height: Int)
        var checksum: String?
        switch mode {
        case .decode:
            size = try pipeline.decodeOnly(
                RenditionOrder(request, bucket: W1Workload.bucket), bytes: bytes, timings: &timings)
        case .w1, .write, .s3:
            let metadata = try pipeline.run(
                RenditionOrder(request, bucket: W1Workload.bucket), bytes: bytes, timings: &timings)
            size = (metadata.width ?? 0, metadata.height ?? 0)
            checksum = metadata.checksumSha256
        }
        let elapsed = started.duration(to: .now)
        if let store = pipeline.store as? RenditionFolder, let checksum {
            try? FileManager.default.removeItem(atPath: store.root + "/" + checksum.prefix(2))
        }
        if let store = pipeline.store as? S3RenditionStore, let checksum {
            let directory = store.location.key(RenditionKey.directory(ofSource: checksum)) + "/"
            try? store.client.list(bucket: store.location.bucket, prefix: directory) { objects in
                for object in objects {
                    try? store.client.delete(bucket: store.location.bucket, key: object.key)
                }
            }
        }
        return Sample(
            seconds: elapsed / .seconds(1), width: size.width, height: size.height, timings: timings)
    }

    /// A source's key under `sources/`: its path without the leading `/`.
    private static func sourceKey(_ file: String) -> String {
        String(file.drop { $0 == "/" })
    }

    private func s3Location(_ part: String) throws(VariantsError) -> (S3Client, S3Location) {
        guard let store, let client else {
            throw VariantsError(.invalidRequest, "s3 mode needs --store s3://BUCKET[/PREFIX]")
        }
        do {
            return (client, try S3Location(store.description + "/" + part))
        } catch {
            throw VariantsError(.invalidRequest, "\(error)")
        }
    }

    private func s3Objects() throws(VariantsError) -> S3ObjectStore {
        let (client, location) = try s3Location("sources")
        return S3ObjectStore(client: client, location: location)
    }

    private func s3Renditions() throws(VariantsError) -> S3RenditionStore {
        let (client, location) = try s3Location("renditions")
        return S3RenditionStore(client: client, location: location)
    }

    /// In `s3` mode, creates the bucket if needed and puts every file into it before anything is timed.
    private func uploadSources(_ files: [String]) throws(VariantsError) {
        guard mode == .s3 else { return }
        let objects = try s3Objects()
        do {
            try objects.client.createBucket(objects.location.bucket)
        } catch {
            throw error.variantsError
        }
        for file in files {
            do {
                try objects.client.put(
                    bucket: objects.location.bucket, key: objects.location.key(Self.sourceKey(file)),
                    file: file,
                    contentType: "application/octet-stream")
            } catch {
                throw error.variantsError
            }
        }
    }
}
