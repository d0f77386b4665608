import Foundation
import Variants

/// One run over a folder or an object-storage prefix: walks it as a stream, skips what the manifest already
/// holds, decodes the rest in decoder children with at most `jobs` files in flight, and appends one manifest line per result as it
/// arrives — so memory stays bounded by `jobs`, whatever the folder's size.
struct BatchRun: Sendable {
    var source: BatchSource
    /// Where the source's files are read as objects (the pool reads through it too).
    var objects: any ObjectStore
    var bucket: BucketDeclaration
    var fingerprint: String
    var jobs: Int
    /// Reads the folder's files as objects and stores their renditions.
    var pool: PipelinePool
    /// Keys of the files recorded by earlier runs, and how their results counted.
    var done: [ManifestKey: ResultCategory]
    var manifest: ManifestWriter
    var progress: ProgressReporter
    /// Checked before each file is dispatched.
    var interrupted: @Sendable () -> Bool

    /// What came of one file.
    private enum Result: Sendable {
        case skipped(ResultCategory)
        /// `bytesRead`: the source bytes read whole for decoding; none for a file refused before that (over
        /// the read limit, gone, a store that did not answer), whatever the walk said its size was.
        case answered(
            Swift.Result<CompletionMetadata, VariantsError>, sourceChecksum: String?, bytesRead: Int)
    }

    /// Runs to the end of the folder or until interrupted; throws only when a manifest line cannot be
    /// written (the run then stops dispatching and waits for the files in flight).
    func run() async throws {
        let counting = Task.detached(priority: .low) { [source, progress] in
            var count = 0
            for case .file in IteratorSequence(source.walk()) {
                if Task.isCancelled { return }
                count += 1
            }
            progress.update { $0.total = count }
        }
        defer { counting.cancel() }
        let found = source.walk()
        var failure: (any Error)?
        await withTaskGroup(of: (BatchSource.File, Result).self) { group in
            var inFlight = 0
            func dispatch() {
                while failure == nil, inFlight < jobs, !interrupted(), let next = found.next() {
                    switch next {
                    case .file(let file):
                        group.addTask { (file, await process(file)) }
                        inFlight += 1
                    case .problem(let problem):
                        do {
                            try record(problem)
                        } catch {
                            failure = error
                        }
                    }
                }
            }
            dispatch()
            while let (file, result) = await group.next() {
                inFlight -= 1
                do {
                    try record(result, for: file)
                } catch {
                    failure = failure ?? error
                }
                dispatch()
            }
        }
        if let failure { throw failure }
    }

    /// Reads and hashes the file once, off the cooperative threads: the checksum finds what an earlier run
    /// did and goes on the manifest line even when decoding fails, and the bytes go to the pool with it, so
    /// an object in storage is downloaded once.
    private func process(_ file: BatchSource.File) async -> Result {
        let path = file.relativePath
        let read = await Blocking.run { [objects] () throws(VariantsError) in
            let bytes = try objects.read(path, maxBytes: Limits.default.maxInputBytes)
            return (bytes, SHA256.hex(bytes))
        }
        let (bytes, checksum): ([UInt8], String)
        switch read {
        case .success(let hashed): (bytes, checksum) = hashed
        case .failure(let error):
            // Too large to be held, but there to be hashed in pieces: its 413 is then a result a re-run skips,
            // not a line without a checksum that every run appends again.
            guard error.code == .payloadTooLarge,
                let checksum = await Blocking.run({ [source] in source.checksumInPieces(of: file) }).get()
            else {
                return .answered(.failure(error), sourceChecksum: nil, bytesRead: 0)
            }
            if let category = recorded(path, checksum) { return .skipped(category) }
            return .answered(.failure(error), sourceChecksum: checksum, bytesRead: 0)
        }
        if let category = recorded(path, checksum) { return .skipped(category) }
        let request = ObjectRequest(bucket: bucket.name, path: path)
        let answer = await pool.fulfil(
            RenditionOrder(request, bucket: bucket), from: .inHand(.bytes(bytes), checksum: checksum))
        return .answered(answer.outcome, sourceChecksum: checksum, bytesRead: bytes.count)
    }

    /// How an earlier run's line for these bytes at this path under this declaration counted, if it counts.
    private func recorded(_ path: String, _ checksum: String) -> ResultCategory? {
        done[ManifestKey(path: path, sourceChecksum: checksum, declaration: fingerprint)]
    }

    /// A part of the source left out: said on stderr, counted, and given a manifest line that says how far a
    /// listing got.
    private func record(_ problem: WalkProblem) throws {
        progress.notice("error: \(problem)")
        try manifest.append(try WalkProblemLine(problem: problem, declaration: fingerprint).text())
        progress.update { $0.record(problem.cause) }
    }

    private func record(_ result: Result, for file: BatchSource.File) throws {
        switch result {
        case .skipped(let category):
            progress.update { $0.recordSkipped(category) }
        case .answered(let outcome, let checksum, let bytesRead):
            var retryable = false
            if case .failure(let error) = outcome {
                retryable = error.code.isTransient
                if ResultCategory(error.code) == .error {
                    progress.notice("error: \(file.relativePath): \(error)")
                }
            }
            let line = ManifestLine(
                outcome: outcome, path: file.relativePath, sourceChecksum: checksum, declaration: fingerprint)
            try manifest.append(try line.text())
            progress.update { $0.record(ResultCategory(outcome), bytes: bytesRead, retryable: retryable) }
        }
    }
}
