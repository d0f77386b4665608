import Foundation
import Variants

/// One run over a folder: walks it as a stream, skips what the manifest already holds, decodes the rest in
/// decoder children with at most `jobs` files in flight, and appends one manifest line per result as it
/// arrives — so memory stays bounded by `jobs`, whatever the folder's size.
struct BatchRun: Sendable {
    /// The folder, absolute with symbolic links resolved.
    var folder: String
    var excluded: Set<String>
    var bucket: BucketSpec
    var fingerprint: String
    var jobs: Int
    /// Reads the folder's files as objects and stores their renditions.
    var pool: DecoderPool
    /// Keys of the files recorded by earlier runs, and how their results counted.
    var done: [ManifestKey: ResultCategory]
    var manifest: ManifestWriter
    var progress: ProgressReporter
    /// Checked before each file is dispatched.
    var interrupted: @Sendable () -> Bool

    /// What came of one file.
    private enum Result: Sendable {
        case skipped(ResultCategory)
        case answered(Swift.Result<CompletionMetadata, VariantsError>, sourceChecksum: String?)
    }

    /// Runs to the end of the folder or until interrupted; throws only when a manifest line cannot be
    /// written (the run then stops dispatching and waits for the files in flight).
    func run() async throws {
        let counting = Task.detached(priority: .low) { [folder, excluded, progress] in
            var count = 0
            for _ in FolderWalk(root: folder, excluded: excluded, unreadable: { _ in }) {
                if Task.isCancelled { return }
                count += 1
            }
            progress.update { $0.total = count }
        }
        defer { counting.cancel() }
        let walk = FolderWalk(root: folder, excluded: excluded) { [progress] directory in
            progress.notice("error: the directory \(directory) cannot be read; its files are left out")
            progress.update { $0.unreadableDirectories += 1 }
        }
        var files = walk.makeIterator()
        var failure: (any Error)?
        await withTaskGroup(of: (FolderWalk.File, Result).self) { group in
            var inFlight = 0
            func dispatch() {
                while failure == nil, inFlight < jobs, !interrupted(), let file = files.next() {
                    group.addTask { (file, await process(file)) }
                    inFlight += 1
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

    private func process(_ file: FolderWalk.File) async -> Result {
        var checksum: String?
        if !done.isEmpty {
            checksum = SourceChecksum.of(file.absolutePath)
            if let checksum,
                let category = done[
                    ManifestKey(path: file.relativePath, sourceChecksum: checksum, declaration: fingerprint)]
            {
                return .skipped(category)
            }
        }
        let request = ObjectRequest(bucket: bucket.name, path: file.relativePath)
        let outcome = await pool.process(request, source: file.relativePath, bucket: bucket).outcome
        if case .failure = outcome, checksum == nil {
            checksum = SourceChecksum.of(file.absolutePath)
        }
        return .answered(outcome, sourceChecksum: checksum)
    }

    private func record(_ result: Result, for file: FolderWalk.File) throws {
        switch result {
        case .skipped(let category):
            progress.update { $0.recordSkipped(category) }
        case .answered(let outcome, let checksum):
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
            progress.update { $0.record(ResultCategory(outcome), bytes: file.size, retryable: retryable) }
        }
    }
}
